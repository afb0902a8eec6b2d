/**
 * The members' renderer thread (member-renderer.ts starts it): renders one post at a time with
 * `renderMemberPost` and answers its HTML, or the reason it cannot be displayed. Runs only the
 * renderer, so the server's own thread never parses a member's Markdown.
 */
import { parentPort } from 'node:worker_threads';
import { BodyRenderError, renderMemberPost } from './render.ts';

export type RenderAnswer = { html: string } | { problem: string };

const port = parentPort!;
port.on('message', (source: string) => {
  let answer: RenderAnswer;
  try {
    answer = { html: renderMemberPost(source) };
  } catch (err) {
    answer = { problem: err instanceof BodyRenderError ? err.message : 'The text could not be displayed.' };
  }
  port.postMessage(answer);
});
// Loaded (the compiler and the sanitiser are heavy to import): the first post's time starts now.
port.postMessage('ready');
