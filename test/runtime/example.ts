/** The generated folder of examples/tools.spec.yaml, as the runtime tests use it. */
export * from '../../generated/index.js';
