/** Thrown by the seed-compatible helpers (`resolveNamespace`, `extractToolkit`) where the seed throws. */
export class ToolCallRejectedError extends Error {
    name = 'ToolCallRejectedError';
    code;
    reason;
    constructor(code, reason) {
        super(reason);
        this.code = code;
        this.reason = reason;
    }
}
