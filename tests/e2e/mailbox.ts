/**
 * The e2e server's mailbox as a person meets it: the newest `.eml` file to an address, parsed, and
 * opened in the browser page so its links are followed by clicking them, as in a mail program.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import PostalMime, { type Email } from 'postal-mime';

const mailboxDir = () => {
  const dir = process.env.E2E_MAILBOX_DIR;
  if (!dir) throw new Error('E2E_MAILBOX_DIR is not set (the global set-up exports it)');
  return dir;
};

/** The newest mail in the mailbox to `to` whose subject matches (a text: contains it), waiting for the worker to write it. */
export async function mailedMessage(to: string, subject: RegExp | string): Promise<Email> {
  const matches = (text: string) => (typeof subject === 'string' ? text.includes(subject) : subject.test(text));
  let found: Email | undefined;
  await expect
    .poll(
      async () => {
        const names = (await readdir(mailboxDir()).catch(() => [] as string[]))
          .filter((n) => n.endsWith('.eml'))
          .sort()
          .reverse();
        for (const name of names) {
          const mail = await PostalMime.parse(await readFile(path.join(mailboxDir(), name)));
          if (mail.to?.some((a) => a.address === to) && matches(mail.subject ?? '')) return (found = mail);
        }
        return undefined;
      },
      { timeout: 20_000, intervals: [250], message: `a mail to ${to} with the subject ${subject}` },
    )
    .toBeTruthy();
  return found!;
}

/** Shows the mail's HTML in the page, as a mail program does, ready for its links to be clicked. */
export async function openMail(page: Page, mail: Email): Promise<void> {
  expect(mail.html, `the mail "${mail.subject}" has an HTML part`).toBeTruthy();
  await page.setContent(mail.html!);
}
