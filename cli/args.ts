/** What the CLI says when `parseArgs` refuses a command line: the option at fault, in the CLI's own words. */
import { closest } from '../generator/problems.js';

/**
 * The message for an error `parseArgs` threw, with a did-you-mean among `options` (names without dashes)
 * for a mistyped one.
 *
 * @example
 * optionError(err, ['json', 'html']); // 'unknown option --jsn (did you mean --json?)'
 */
export function optionError(err: unknown, options: readonly string[]): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  const option = /^(?:Unknown option|Option) '(-[^' ]*)/.exec(message)?.[1];
  if (option === undefined) return message;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const near = option.startsWith('--') ? closest(option.slice(2).split('=')[0]!, options, 2).map((n) => `--${n}`) : [];
    return `unknown option ${option}${near.length > 0 ? ` (did you mean ${near.join(' or ')}?)` : ''}`;
  }
  if (/does not take an argument/.test(message)) return `${option} takes no value`;
  if (/argument missing/.test(message)) return `${option} needs a value`;
  if (/argument is ambiguous/.test(message)) return `${option} needs a value (for a value that starts with "-", write ${option}=<value>)`;
  return message;
}
