/**
 * A renderer's thread (body-renderer.ts starts it): renders one text at a time, a member's post with
 * `renderMemberPost` or a staff body with `renderBody` (as its `workerData` says), and answers its
 * HTML or the reason it cannot be displayed. Runs only the renderer, so the server's own thread never
 * parses Markdown or MDX.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { renderBody, renderMemberPost } from './render.ts';
import { BodyRenderError, type BodyFormat } from './body.ts';

/** What the thread renders: members' posts, or staff bodies with images from these origins. */
export type RenderProfile = { kind: 'member' } | { kind: 'staff'; imageOrigins: readonly string[] };
export interface RenderRequest {
  source: string;
  format: BodyFormat;
}
export type RenderAnswer = { html: string } | { problem: string };

const profile = workerData as RenderProfile;
const render = (request: RenderRequest) =>
  profile.kind === 'member' ? renderMemberPost(request.source) : renderBody(request.source, request.format, profile.imageOrigins);

const port = parentPort!;
port.on('message', (request: RenderRequest) => {
  let answer: RenderAnswer;
  try {
    answer = { html: render(request) };
  } catch (err) {
    answer = { problem: err instanceof BodyRenderError ? err.message : 'The text could not be displayed.' };
  }
  port.postMessage(answer);
});
// Loaded (the compiler and the sanitiser are heavy to import): the first text's time starts now.
port.postMessage('ready');
