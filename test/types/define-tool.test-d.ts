/**
 * Type tests for `defineTool` inference, checked by `npm run typecheck` (tsconfig includes test/):
 * each `expectTypeOf` fails to compile when the inferred type is wrong (e.g. `unknown`), and each
 * `@ts-expect-error` fails to compile when the mistake below it stops being an error.
 */
import { expectTypeOf } from 'vitest';
import { type as arkType } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { defineTool, type Tool } from '../../src/index.js';

// Arguments are inferred from a zod inputSchema (the README's example).
const greet = defineTool({
  name: 'greet',
  inputSchema: z.object({ name: z.string(), times: z.number().optional() }),
  execute: ({ name, times }) => {
    expectTypeOf(name).toEqualTypeOf<string>();
    expectTypeOf(times).toEqualTypeOf<number | undefined>();
    const typed: string = name; // fails to compile if `name` is unknown
    return typed.repeat(times ?? 1);
  },
});
expectTypeOf(greet).toEqualTypeOf<Tool<{ name: string; times?: number | undefined }>>();

// The output schema types what execute returns (its structured value, or a full CallToolResult).
defineTool({
  name: 'stats',
  inputSchema: z.object({ values: z.array(z.number()) }),
  outputSchema: z.object({ count: z.number() }),
  execute: ({ values }) => ({ count: values.length }),
});
defineTool({
  name: 'stats_full',
  outputSchema: z.object({ count: z.number() }),
  execute: () => ({ content: [], structuredContent: { count: 1 } }),
});
defineTool({
  name: 'stats_wrong',
  inputSchema: z.object({ values: z.array(z.number()) }),
  outputSchema: z.object({ count: z.number() }),
  // @ts-expect-error `count` must be a number per outputSchema
  execute: ({ values }) => ({ count: String(values.length) }),
});
defineTool({
  name: 'typo',
  inputSchema: z.object({ name: z.string() }),
  // @ts-expect-error `nme` is not an argument of inputSchema
  execute: ({ nme }) => String(nme),
});

// A plain JSON Schema cannot be inferred from: give the type explicitly.
const add = defineTool<{ a: number; b: number }>({
  name: 'add',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  execute: ({ a, b }) => {
    expectTypeOf(a).toEqualTypeOf<number>();
    return String(a + b);
  },
});
expectTypeOf(add).toEqualTypeOf<Tool<{ a: number; b: number }>>();

// No schema: a record of unknown values.
defineTool({
  name: 'bare',
  execute: (args) => {
    expectTypeOf(args).toEqualTypeOf<Record<string, unknown>>();
    return 'ok';
  },
});

// ArkType (its types are functions) and Valibot (no JSON Schema of its own) infer the same way.
defineTool({
  name: 'ark',
  inputSchema: arkType({ values: 'number[]', 'label?': 'string' }),
  outputSchema: arkType({ count: 'number' }),
  execute: ({ values, label }) => {
    expectTypeOf(values).toEqualTypeOf<number[]>();
    expectTypeOf(label).toEqualTypeOf<string | undefined>();
    return { count: values.length };
  },
});
defineTool({
  name: 'valibot',
  inputSchema: v.object({ values: v.array(v.number()) }),
  outputSchema: v.object({ count: v.number() }),
  // @ts-expect-error: the Valibot outputSchema says count is a number
  execute: ({ values }) => ({ count: String(values.length) }),
});
