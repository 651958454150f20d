#!/usr/bin/env node
// The `toolroute` command. toolroute ships TypeScript sources: register tsx's
// ESM loader, then run the CLI (generator/cli.ts).
import { register } from 'tsx/esm/api';

register();
const { run } = await import('../generator/cli.ts');
await run(process.argv.slice(2));
