/**
 * The contract between the generator and the runtime: what a generated folder's `index.ts` exports, and the types both
 * sides share. The generator may import this file; the runtime never imports the generator.
 */
/** The providers `compile({ target })` renders for. */
export const TARGETS = ['anthropic', 'openai', 'openai-responses', 'gemini'];
/** Rendered tool sets exist for every target plus the seed's provider-neutral form. */
export const RENDER_FORMS = ['neutral', ...TARGETS];
/** Why a call was rejected: one closed set shared by `checkToolCall` and `dispatch`. */
export const REJECTION_CODES = [
    'empty_name',
    'unknown_tool',
    'blocked',
    'not_loaded',
    'unknown_action',
    'malformed_arguments',
    'invalid_arguments',
    'handler_error',
    /** The handler did not settle within its time limit (`timeoutMs`); its `ctx.signal` was aborted. */
    'timeout',
    /** The caller's `signal` aborted while the handler ran; the handler's `ctx.signal` was aborted. */
    'aborted',
];
/** The name of the library-owned loader tool. */
export const LOAD_TOOLKIT_NAME = 'load_toolkit';
/** The library-owned tool through which loaded toolkit tools are called in `dispatcher` mode. */
export const TOOLKIT_DISPATCHER_NAME = 'call_toolkit_tool';
/** Names the library owns, reserved in specs and refused in registrations: the loader, the dispatcher, the seed's library tools. */
export const RESERVED_TOOL_NAMES = [LOAD_TOOLKIT_NAME, TOOLKIT_DISPATCHER_NAME, 'context', 'new_context', 'create_memory', 'modify_memory', 'recall_context'];
/** The tool-name rule every target accepts: a letter or `_`, then letters, digits, `_` or `-`, 64 at most. */
export const PORTABLE_TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
