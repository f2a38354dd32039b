/**
 * HTML -> Markdown with turndown (ATX headings, fenced code, `-` bullets), plus GFM pipe tables and
 * images without embedded data. Shared by the HTML and DOCX converters.
 */
import type TurndownService from 'turndown';
import { lazyRequire } from '../lazy-module.js';

const loadTurndown = lazyRequire<typeof TurndownService>('turndown');

/** The few DOM members the rules below read (turndown hands rules domino nodes). */
interface DomElement {
  nodeName: string;
  parentNode: DomElement | null;
  childNodes: ArrayLike<DomElement>;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomElement | null;
}

/** Nearest enclosing `<table>` of a node, or `null`. */
function tableOf(node: DomElement): DomElement | null {
  let current = node.parentNode;
  while (current !== null && current.nodeName !== 'TABLE') current = current.parentNode;
  return current;
}

/** Number of `<td>`/`<th>` children of a row. */
function cellCount(row: DomElement): number {
  return Array.from(row.childNodes).filter((child) => child.nodeName === 'TD' || child.nodeName === 'TH').length;
}

/** Adds table and image rules to a turndown service. */
function addRules(service: TurndownService): void {
  service.addRule('tableCell', {
    filter: ['th', 'td'],
    replacement: (content) =>
      ` ${content
        .replace(/\s*\n+\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim()} |`,
  });
  service.addRule('tableRow', {
    filter: 'tr',
    replacement: (content, node) => {
      const row = node as unknown as DomElement;
      const line = `|${content}\n`;
      if (tableOf(row)?.querySelector('tr') !== row) return line;
      return `${line}|${' --- |'.repeat(Math.max(cellCount(row), 1))}\n`;
    },
  });
  service.addRule('tableSection', { filter: ['thead', 'tbody', 'tfoot'], replacement: (content) => content });
  service.addRule('table', { filter: 'table', replacement: (content) => `\n\n${content.trim()}\n\n` });
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as unknown as DomElement;
      const src = element.getAttribute('src') ?? '';
      const alt = (element.getAttribute('alt') ?? '').trim();
      if (src === '' || src.startsWith('data:')) return alt === '' ? '' : `[image: ${alt}]`;
      return `![${alt}](${src})`;
    },
  });
}

let shared: TurndownService | undefined;

/**
 * Converts an HTML document or fragment to Markdown. Scripts, styles, `<noscript>` and `<template>` are
 * dropped; tables become GFM pipe tables (first row as header); inline `data:` images become `[image: alt]`.
 */
export function htmlToMarkdown(html: string): string {
  if (shared === undefined) {
    const Turndown = loadTurndown();
    shared = new Turndown({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    shared.remove(['script', 'style', 'noscript', 'template']);
    addRules(shared);
  }
  return shared.turndown(html).trim();
}
