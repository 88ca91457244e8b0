import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Markdown } from './markdown';

const render = (source: string) => renderToStaticMarkup(createElement(Markdown, { children: source }));

describe('article Markdown (CONTRACT 9: no raw HTML, no script)', () => {
  it('drops raw HTML, event handler attributes and javascript: addresses, whatever their spelling', () => {
    const attacks = [
      '<script>alert(1)</script>',
      '<img src=x onerror="alert(1)">',
      '<a href="javascript:alert(1)">html link</a>',
      '[md link](javascript:alert(1))',
      '[upper](JAVASCRIPT:alert(1))',
      '[spaced](  javascript:alert(1))',
      '[entity](jav&#x61;script:alert(1))',
      '![image](javascript:alert(1))',
      '[data](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
      '<svg onload=alert(1)><circle /></svg>',
      '<iframe src="https://example.org"></iframe>',
      '[ref]\n\n[ref]: javascript:alert(1)',
    ];
    for (const source of attacks) {
      const html = render(source).toLowerCase();
      expect(html, source).not.toMatch(/<script|<iframe|<svg|onerror|onload|javascript:|data:text|src=""/);
    }
  });

  it('keeps ordinary Markdown: headings, emphasis, lists, tables, safe links', () => {
    const html = render('# Before surgery\n\n**Do not eat** after midnight.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n[NHS](https://www.nhs.uk) and [us](mailto:care@example.org)');
    // One level below the page's own title.
    expect(html).toContain('<h2>Before surgery</h2>');
    expect(html).toContain('<strong>Do not eat</strong>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<td>2</td>');
    expect(html).toContain('href="https://www.nhs.uk"');
    expect(html).toContain('href="mailto:care@example.org"');
    expect(html).toContain('rel="noopener noreferrer nofollow"');
  });
});
