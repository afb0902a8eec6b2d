/** Which methods a path answers to, from an app's registered routes (for 405 with `Allow`). */
import { TrieRouter } from 'hono/router/trie-router';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Builds a lookup from routes such as Hono's `app.routes`; catch-all (ALL) routes are skipped. */
export function createMethodIndex(routes: readonly { method: string; path: string }[]) {
  const router = new TrieRouter<string>();
  for (const route of routes) if (route.method !== 'ALL') router.add(route.method, route.path, route.method);
  return (path: string): string[] => {
    const allowed: string[] = METHODS.filter((method) => router.match(method, path)[0].length > 0);
    if (allowed.includes('GET')) allowed.splice(1, 0, 'HEAD');
    return allowed;
  };
}
