/**
 * Keyset pagination, one shape for every list: services take a `Page` (rows after `afterId`, at most
 * `limit`) and answer a `Paged` list whose `next` is the id to continue after, or null on the last page.
 * REST turns `next` into a signed cursor in `Link`; tRPC hands it to the UI as `nextCursor`.
 */
export type Page = {
  limit: number;
  afterId: number;
  /** Lists that support it (logs) run newest first; `afterId` is then where the previous page ended. */
  newestFirst?: boolean;
};
export type Paged<T> = { items: T[]; next: number | null };

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
export const FIRST_PAGE: Page = { limit: DEFAULT_PAGE_SIZE, afterId: 0 };

/** Rows to ask the database for: one more than the page, so we know whether another page exists. */
export const fetchSize = (page: Page) => page.limit + 1;

/** The first `limit` rows, and where the next page starts when there were more. */
export function toPaged<R extends { id: number }, T = R>(rows: R[], page: Page, map?: (row: R) => T): Paged<T> {
  const items = rows.length > page.limit ? rows.slice(0, page.limit) : rows;
  return {
    items: map ? items.map(map) : (items as unknown as T[]),
    next: rows.length > page.limit ? items.at(-1)!.id : null,
  };
}

/** Every item of a paged source, page by page (for exports and other whole-list work). */
export async function* allPages<T>(load: (page: Page) => Promise<Paged<T>>, limit = MAX_PAGE_SIZE): AsyncGenerator<T> {
  let afterId = 0;
  for (;;) {
    const { items, next } = await load({ limit, afterId });
    yield* items;
    if (next === null) return;
    afterId = next;
  }
}

/** `allPages` gathered into one array. */
export async function collectPages<T>(load: (page: Page) => Promise<Paged<T>>, limit = MAX_PAGE_SIZE): Promise<T[]> {
  const out: T[] = [];
  for await (const item of allPages(load, limit)) out.push(item);
  return out;
}
