/**
 * What functions/community/demo-html.ts must hold: every demo post's body rendered as a member's
 * post is. Used by the script that writes that file and the test that checks it, never at run time.
 */
import { renderMemberPost } from '../content/index.ts';
import { DEMO_COMMUNITY } from './demo.ts';

export function demoPostHtml(): Record<string, string> {
  const posts = DEMO_COMMUNITY.flatMap((category) =>
    category.threads.flatMap((thread) => [thread.body, ...thread.replies.map((r) => r.body)]),
  );
  return Object.fromEntries(posts.map((body) => [body, renderMemberPost(body)]));
}
