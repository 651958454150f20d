/**
 * The generated folder of examples/tools.spec.yaml, as the runtime tests use it.
 * TODO(runtime): point at '../../generated/index.js' once it is generated (dev copy until then).
 */
export * from './.tmp/example-gen/index.js';
