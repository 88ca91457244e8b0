/**
 * The value kept for `key` in `cache`, computed and kept on first use (a computed undefined or null is
 * kept too). Once `max` values are kept the oldest is dropped: for work done per call on something there
 * are few of (a webhook's secret, its host), where redoing it each time showed in the profiles.
 */
export function remembered<K, V>(cache: Map<K, V>, key: K, compute: () => V, max = 1000): V {
  const known = cache.get(key);
  if (known !== undefined || cache.has(key)) return known as V;
  const value = compute();
  if (cache.size >= max) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}
