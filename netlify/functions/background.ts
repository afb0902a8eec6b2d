/**
 * The background work as a Netlify Scheduled Function: one bounded round a minute (the outbox, event
 * reminders, the newsletter's scheduled issues, the community's reply mails, the test provider's
 * billing clock, prunes; functions/background.ts). Rounds that overlap share the work and never do
 * one piece twice; transactional mail leaves sooner, drained by the API function after each write.
 */
import type { Config } from '@netlify/functions';
import { createScheduledHandler, netlifyEnvironment } from '../../functions/serverless.ts';

const run = createScheduledHandler(netlifyEnvironment());

export default async () => {
  await run();
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '* * * * *' };
