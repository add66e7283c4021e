import { describe, expect, it } from 'vitest';
import { takeSessionToken } from '@renderer/src/transport/token';

/** A page address and a tab's storage as the browser gives them (plain objects with the same behaviour). */
function page(href: string) {
  const url = new URL(href);
  const store = new Map<string, string>();
  const location = {
    get search() {
      return url.search;
    },
    get pathname() {
      return url.pathname;
    },
    get hash() {
      return url.hash;
    },
  } as Location;
  const history = {
    state: null,
    replaceState: (_s: unknown, _t: string, next: string) => {
      const u = new URL(next, url);
      url.search = u.search;
      url.hash = u.hash;
    },
  } as unknown as History;
  const storage = {
    getItem: (k: string) => store.get(k) ?? null,
    setItem: (k: string, v: string) => void store.set(k, v),
  } as Storage;
  return { url, location, history, storage };
}

describe('takeSessionToken', () => {
  it('takes the token from the address, removes it from the address bar and keeps the route', () => {
    const p = page('http://127.0.0.1:5000/?token=abc&x=1#/inbox');
    expect(takeSessionToken(p.location, p.history, p.storage)).toBe('abc');
    expect(p.url.search).toBe('?x=1');
    expect(p.url.hash).toBe('#/inbox');
  });

  it('finds the token again after a reload, from the tab storage', () => {
    const p = page('http://127.0.0.1:5000/?token=abc');
    takeSessionToken(p.location, p.history, p.storage);
    expect(p.url.search).toBe('');
    expect(takeSessionToken(p.location, p.history, p.storage)).toBe('abc');
  });

  it('answers null when the page was opened without one', () => {
    const p = page('http://127.0.0.1:5000/');
    expect(takeSessionToken(p.location, p.history, p.storage)).toBeNull();
  });
});
