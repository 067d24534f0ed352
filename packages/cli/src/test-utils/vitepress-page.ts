import type { Page } from 'playwright-core';

/** What the reader sees of a VitePress page: title, headings and the article's text (rendered on the server). */
// (Page code as strings: this package is compiled without the DOM's types.)
export const visible = (page: Page) =>
  page.evaluate(`({
    title: document.title,
    h1: [...document.querySelectorAll('h1')].map((h) => h.textContent.trim()),
    doc: document.querySelector('.vp-doc')?.textContent.replace(/\\s+/g, ' ').trim(),
  })`);

/** True once the article is in the page. */
export const DOC_READY = "document.querySelector('.vp-doc') !== null";
