import { describe, expect, it } from 'vitest';
import { HtmlConverter } from '../../src/converters/index.js';

const converter = new HtmlConverter();
const convert = async (html: string | Uint8Array) => {
  const bytes = typeof html === 'string' ? new TextEncoder().encode(html) : html;
  const out = await converter.convert({ path: '/x/page.html', bytes, mimeType: 'text/html' });
  if (out.kind !== 'text') throw new Error('expected text');
  return out;
};

describe('HtmlConverter', () => {
  it('turns a page into Markdown', async () => {
    const out = await convert(
      '<!doctype html><html><head><title>T</title><style>p{color:red}</style><script>var secret = 1;</script></head>' +
        '<body><h1>Hello</h1><p>Some <b>bold</b> and a <a href="https://example.com/x">link</a>.</p>' +
        '<ul><li>one</li><li>two</li></ul><pre><code>let x = 1;</code></pre></body></html>',
    );
    expect(out.mimeType).toBe('text/markdown');
    expect(out.text).toContain('# Hello');
    expect(out.text).toContain('Some **bold** and a [link](https://example.com/x).');
    expect(out.text).toMatch(/^- {1,3}one$/m);
    expect(out.text).toContain('```\nlet x = 1;\n```');
    expect(out.text).not.toContain('secret');
    expect(out.text).not.toContain('color:red');
  });

  it('renders tables as GFM pipe tables with the first row as header', async () => {
    const out = await convert(
      '<table><thead><tr><th>Name</th><th>Qty</th></tr></thead><tbody><tr><td>a|b</td><td>2</td></tr></tbody></table>',
    );
    expect(out.text).toBe('| Name | Qty |\n| --- | --- |\n| a\\|b | 2 |');
  });

  it('drops inline data images but keeps their alt text', async () => {
    const out = await convert(
      '<p><img src="data:image/png;base64,AAAA" alt="chart"><img src="https://x/y.png" alt="y"></p>',
    );
    expect(out.text).toContain('[image: chart]');
    expect(out.text).not.toContain('base64');
    expect(out.text).toContain('![y](https://x/y.png)');
  });

  it('decodes a UTF-8 BOM and survives malformed markup', async () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('<p>Grüße<div>unclosed')]);
    const out = await convert(bytes);
    expect(out.text).toContain('Grüße');
    expect(out.text).toContain('unclosed');
  });
});
