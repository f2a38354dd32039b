import { describe, expect, it } from 'vitest';
import { decodeParamHeader, paramHeaderMismatch, paramHeaders } from '../../src/mcp/transports/http/param-headers.js';

const schema = {
  type: 'object',
  properties: {
    region: { type: 'string', 'x-mcp-header': 'Region' },
    limit: { type: 'integer', 'x-mcp-header': 'Limit' },
    nested: { type: 'object', properties: { flag: { type: 'boolean', 'x-mcp-header': 'Flag' } } },
    list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Ignored' } },
    plain: { type: 'string' },
  },
};

describe('Mcp-Param-* headers (SEP-2243)', () => {
  it('finds x-mcp-header declarations through properties only', () => {
    expect(paramHeaders(schema)).toEqual([
      { path: ['region'], header: 'Region' },
      { path: ['limit'], header: 'Limit' },
      { path: ['nested', 'flag'], header: 'Flag' },
    ]);
    expect(paramHeaders({ type: 'object' })).toEqual([]);
  });

  it('decodes =?base64?...?= strictly and keeps anything else literal', () => {
    expect(decodeParamHeader('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeParamHeader('=?base64?SGVsbG8?=')).toBeUndefined(); // bad padding
    expect(decodeParamHeader('=?base64?SGVs!!!bG8=?=')).toBeUndefined(); // bad characters
    expect(decodeParamHeader('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8='); // no suffix: literal
    expect(decodeParamHeader('SGVsbG8=')).toBe('SGVsbG8=');
    expect(decodeParamHeader(`=?base64?${Buffer.from('日本').toString('base64')}?=`)).toBe('日本');
  });

  it('accepts agreeing headers and names the first disagreement', () => {
    const declarations = paramHeaders(schema);
    const headers = (values: Record<string, string>) => (name: string) => values[name];
    const args = { region: 'eu', limit: 5, nested: { flag: true } };
    const good = { 'mcp-param-region': 'eu', 'mcp-param-limit': '5', 'mcp-param-flag': 'true' };
    expect(paramHeaderMismatch(declarations, args, headers(good))).toBeUndefined();
    expect(paramHeaderMismatch(declarations, {}, headers({}))).toBeUndefined(); // nothing in the body, nothing needed
    expect(paramHeaderMismatch(declarations, args, headers({ ...good, 'mcp-param-region': 'us' }))).toMatch(
      /Mcp-Param-Region header does not match region/,
    );
    const { 'mcp-param-limit': _omit, ...missing } = good;
    expect(paramHeaderMismatch(declarations, args, headers(missing))).toMatch(/Mcp-Param-Limit header is missing/);
    expect(paramHeaderMismatch(declarations, args, headers({ ...good, 'mcp-param-flag': '=?base64?x?=' }))).toMatch(
      /not valid Base64/,
    );
  });
});
