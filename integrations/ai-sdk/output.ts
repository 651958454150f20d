/**
 * A toolroute tool's output in the AI SDK: what `execute` returns, and what `toModelOutput` sends the model for it.
 *
 * The AI SDK keeps a tool's output in places toolroute does not see: UI messages, which it deep-copies with
 * `structuredClone` (`readUIMessageStream`, `createUIMessageStream`'s `onStepFinish`) and sends to the browser as
 * JSON (`toUIMessageStreamResponse`), and on the next chat turn `convertToModelMessages` hands that copy back to
 * `toModelOutput`. So `execute` returns plain JSON data only (a class instance, a Map or a BigInt would not survive
 * the trip, or would stop the stream), and a rejection is recognised by its shape, never by its class.
 */
import type { Tool } from 'ai';
import { toolResultErrorFlag, type Target, type ToolDefinition } from '../../runtime/index.js';
// Within the package: the load result's first line, as the router writes it.
import { loadResultHead } from '../../runtime/toolkit-loading.js';
import { isRecord, jsonText, resultText } from '../../runtime/targets/history.js';

/**
 * A call the router rejected, as the tool's output (not thrown: thrown, the AI SDK would send an error text, which
 * provider packages rewrite; `@ai-sdk/openai` wraps it in `{"error": …}`). The model reads `reason`, verbatim.
 * @example { toolroute: 'rejected', code: 'blocked', reason: 'Tool "delete_file" is currently blocked.' }
 */
export interface AiSdkRejection {
  readonly toolroute: 'rejected';
  /** The router's rejection code (`blocked`, `invalid_arguments`, `not_loaded`, `aborted`, …). */
  readonly code: string;
  /** What the model is told, as the router wrote it. */
  readonly reason: string;
}

/** A toolroute tool's output read back (see {@link readToolOutput}): `dispatch`'s shape. */
export type AiSdkToolOutput = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly code: string; readonly reason: string };

/**
 * The key that marks toolroute's own objects among tool outputs. A handler's result that has it too is wrapped as
 * `{ toolroute: 'result', value }`, so no result of a handler can be read as a rejection.
 */
const MARK = 'toolroute';

/** A rejection as `execute` returns it. */
export function rejectionData(code: string, reason: string): AiSdkRejection {
  return { toolroute: 'rejected', code, reason };
}

/**
 * A handler's result as `execute` returns it: plain JSON data, written by the project's one rule for results
 * (`jsonText`: a Map becomes an object, a Set a list, a BigInt a number or its digits). A string stays as it is,
 * `undefined` is `null`, and what JSON cannot write (a cyclic value, a function) is the text the model reads for it.
 * @example resultData(new Map([['Lisbon', 'sunny']])); // → { Lisbon: 'sunny' }
 */
export function resultData(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (value === undefined) return null;
  const json = jsonText(value);
  const data: unknown = json === undefined ? resultText(value) : JSON.parse(json);
  return isRecord(data) && Object.hasOwn(data, MARK) ? { [MARK]: 'result', value: data } : data;
}

/**
 * What a toolroute tool's output stands for: the handler's result, or the router's rejection. It reads the output
 * wherever the AI SDK keeps it (`result.toolResults`, a UI message part's `output`, a chat history stored as JSON).
 * @example readToolOutput({ toolroute: 'rejected', code: 'blocked', reason: 'Tool "x" is currently blocked.' }); // → { ok: false, code: 'blocked', reason: 'Tool "x" is currently blocked.' }
 * @example readToolOutput({ code: 'E42', reason: 'out of stock' }); // → { ok: true, result: { code: 'E42', reason: 'out of stock' } }
 */
export function readToolOutput(output: unknown): AiSdkToolOutput {
  if (isRecord(output) && Object.hasOwn(output, MARK)) {
    const { code, reason, value } = output;
    if (output[MARK] === 'rejected' && typeof code === 'string' && typeof reason === 'string') return { ok: false, code, reason };
    if (output[MARK] === 'result' && Object.hasOwn(output, 'value')) return { ok: true, result: value };
  }
  return { ok: true, result: output };
}

export type ToolOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

/** What the AI SDK sends for a tool's output when the tool has no `toModelOutput`. */
export function defaultOutput(output: unknown): ToolOutput {
  if (typeof output === 'string') return { type: 'text', value: output };
  const json = jsonText(output);
  // What JSON cannot write (a cyclic value, a function) goes as text, as `toolMessage` writes it: never an exception that ends the run.
  if (json === undefined && output !== undefined) return { type: 'text', value: resultText(output) };
  return { type: 'json', value: json === undefined ? null : (JSON.parse(json) as never) };
}

/**
 * How a reason is sent: the tool's text, which every provider package sends
 * verbatim; where the target's tool results carry a failure flag (Anthropic),
 * an error result, which `@ai-sdk/anthropic` sends verbatim as a `tool_result`
 * with `is_error` (OpenAI's packages wrap error results as `{"error": …}`).
 */
export function rejectionOutput(target: Target | undefined): (reason: string) => ToolOutput {
  return target !== undefined && toolResultErrorFlag(target) ? (value) => ({ type: 'error-text', value }) : (value) => ({ type: 'text', value });
}

/**
 * A tool's `toModelOutput`: a rejection as `rejected` sends it, a result as `success` does. It reads what `execute`
 * returned, also after a structured clone or a JSON round trip.
 */
export function modelOutput(rejected: (reason: string) => ToolOutput, success: (output: unknown) => ToolOutput): (options: { output: unknown }) => ToolOutput {
  return ({ output }) => {
    const read = readToolOutput(output);
    return read.ok ? success(read.result) : rejected(read.reason);
  };
}

/**
 * `load_toolkit`'s model output in `deferred` mode: a successful load's text
 * (`Toolkit "X" loaded.` or `… is already loaded.`, as the router writes it)
 * and one Anthropic `tool_reference` per tool of that toolkit, which
 * `@ai-sdk/anthropic` sends as `{ type: 'tool_reference', tool_name }` blocks
 * in the `tool_result`. Any other text goes as plain text (a rejection never
 * gets here: it has its own output).
 */
export function withToolReferences(kits: readonly { name: string; tools: readonly ToolDefinition[] }[]): (output: unknown) => ToolOutput {
  return (output) => {
    const text = resultText(output);
    const kit = kits.find((k) => text.startsWith(loadResultHead(k.name, true)) || text.startsWith(loadResultHead(k.name, false)));
    if (kit === undefined) return { type: 'text', value: text };
    return {
      type: 'content',
      value: [
        { type: 'text', text },
        ...kit.tools.map((t) => ({ type: 'custom' as const, providerOptions: { anthropic: { type: 'tool-reference', toolName: t.name } } })),
      ],
    };
  };
}
