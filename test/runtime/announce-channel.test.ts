/**
 * A channel outside "auto", "user_tail" and "system" (a JavaScript caller, a config value) is refused by `announce`
 * and `syncToolAnnouncements` with the closest channel, and the router's state is left as it was: no announcement is
 * stored that no target would deliver, and `restore(snapshot())` keeps working.
 */
import { describe, expect, test } from 'vitest';
import { exampleRouter } from './helpers.js';

describe('announcement channels are checked', () => {
  test('announce refuses an unknown channel, naming the closest, and changes nothing', () => {
    const { router } = exampleRouter();
    router.announce('kept', 'standing', { channel: 'system' });
    const before = router.snapshot();
    expect(() => router.announce('new', 'text', { channel: 'user-tail' as never })).toThrow(
      /^announce: options\.channel takes 'auto', 'user_tail' or 'system'; got "user-tail" \(did you mean "user_tail"\?\)\.$/,
    );
    expect(() => router.announce('kept', 'replaced', { channel: 42 as never })).toThrow(/^announce: options\.channel takes 'auto', 'user_tail' or 'system'; got 42\.$/);
    expect(() => router.announce('new', 'text', 5 as never)).toThrow(/^announce: options must be an object; got 5\.$/);
    expect(router.snapshot()).toEqual(before);
    expect(() => router.restore(router.snapshot())).not.toThrow();
  });

  test('a misspelt option name is refused too, naming the one option, and changes nothing', () => {
    const { router } = exampleRouter();
    expect(() => router.announce('a', 'x', { chanel: 'system' } as never)).toThrow(/announce options: unknown name "chanel" \(did you mean "channel"\?\)/);
    expect(() => router.syncToolAnnouncements(['get_time'], { chanel: 'system' } as never)).toThrow(/syncToolAnnouncements options: unknown name "chanel"/);
    expect(router.getAnnouncements()).toEqual([]);
  });

  test('syncToolAnnouncements refuses it before touching the announcements or the previous set', () => {
    const { router } = exampleRouter();
    router.syncToolAnnouncements(['read_file', 'get_time']);
    const before = router.snapshot();
    expect(() => router.syncToolAnnouncements(['get_time'], { channel: 'sytem' as never })).toThrow(/^syncToolAnnouncements: options\.channel takes .*; got "sytem" \(did you mean "system"\?\)/);
    expect(router.snapshot()).toEqual(before);
    // The next valid call still sees read_file as announced before.
    expect(router.syncToolAnnouncements(['get_time'], { channel: 'system' })).toEqual({ added: [], removed: ['read_file'] });
  });

  test('syncToolAnnouncements refuses a tool set that is not a list of names, and changes nothing (a snapshot still restores)', () => {
    const { router } = exampleRouter();
    router.syncToolAnnouncements(['read_file']);
    const before = router.snapshot();
    for (const next of ['get_time', [1, 2], null, ['get_time', undefined]]) {
      expect(() => router.syncToolAnnouncements(next as never)).toThrow(/^syncToolAnnouncements: the tool set must be an array of tool names; got /);
    }
    expect(router.snapshot()).toEqual(before);
    expect(() => router.restore(router.snapshot())).not.toThrow();
  });
});
