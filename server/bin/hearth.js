#!/usr/bin/env node
// Entry point of `npx hearth`: runs the TypeScript CLI through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli.ts');
process.exitCode = await main(process.argv.slice(2));
