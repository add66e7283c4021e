const STORAGE_KEY = 'scanbridge.token';

/**
 * The browser-mode session token: taken from `?token=` of the page address on first load, then
 * removed from the address bar (so it is not shown, bookmarked or shared) and kept for this tab only.
 */
export function takeSessionToken(location: Location, history: History, storage: Storage): string | null {
  const params = new URLSearchParams(location.search);
  const fromUrl = params.get('token');
  if (fromUrl) {
    storage.setItem(STORAGE_KEY, fromUrl);
    params.delete('token');
    const rest = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${rest ? `?${rest}` : ''}${location.hash}`);
    return fromUrl;
  }
  return storage.getItem(STORAGE_KEY);
}
