/**
 * What functions/community/demo-html.ts must hold: every demo post's body rendered as a member's
 * post is. Used by the script that writes that file and the test that checks it, never at run time.
 */
// Past content's front door on purpose: the rendering pipeline is build-time here, and the front door
// must not load it on the server's thread (content/main-thread.test.ts).
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { renderMemberPost } from '../content/render.ts';
import { DEMO_COMMUNITY } from './demo.ts';

export function demoPostHtml(): Record<string, string> {
  const posts = DEMO_COMMUNITY.flatMap((category) =>
    category.threads.flatMap((thread) => [thread.body, ...thread.replies.map((r) => r.body)]),
  );
  return Object.fromEntries(posts.map((body) => [body, renderMemberPost(body)]));
}
