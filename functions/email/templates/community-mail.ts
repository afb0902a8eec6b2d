/**
 * The community's reply mail: one message per thread and member, listing the replies by others
 * since the member's last mail on that thread (functions/community/notifications/round.ts batches
 * them; it decides who may get the thread's title at all, judged when the mail is written). The
 * replies come as plain-text excerpts, never the posts' HTML, and every value is escaped like any
 * other template value. Each mail links to the thread, to a page that mutes this one thread, and to
 * one that turns the member's reply mails off, and carries the one-click List-Unsubscribe headers
 * (RFC 2369, RFC 8058) for that last one.
 */
import { html } from './html.ts';
import { button, layout, textLayout } from './layout.ts';
import type { RenderedEmail, TemplateContext } from './rendered.ts';
import { listHeaders, type NewsletterLinks } from './site-mail.ts';

/** One reply as the mail lists it. */
export interface ReplyExcerpt {
  /** The author's display name ("A deleted member" once the account is gone). */
  author: string;
  /** The reply as plain text, cut to a few lines. */
  excerpt: string;
}

export interface CommunityRepliesData extends NewsletterLinks {
  /** The thread's title (or, for comments, the article's or lesson's). */
  title: string;
  /** Where the thread is: its category's name, or "Comments on …". */
  place: string;
  /** The thread's page. */
  threadUrl: string;
  /** The page whose button mutes this thread. */
  muteUrl: string;
  /** The replies listed, oldest first. */
  replies: ReplyExcerpt[];
  /** Replies since the last mail beyond those listed. */
  more: number;
}

const QUOTE = 'margin:0 0 16px;padding:4px 0 4px 16px;border-left:3px solid #bfd3fe';
const MUTED = 'margin:24px 0 0;color:#64748b;font-size:14px';

/** "Ada replied" for one reply, "3 new replies" for more. */
function headline(d: CommunityRepliesData): string {
  const count = d.replies.length + d.more;
  return count === 1 ? `${d.replies[0]?.author ?? 'A member'} replied` : `${count} new replies`;
}

function replies(d: CommunityRepliesData, { siteUrl }: TemplateContext): RenderedEmail {
  const count = d.replies.length + d.more;
  const moreText = d.more > 0 ? `And ${d.more} more ${d.more === 1 ? 'reply' : 'replies'} on the page.` : '';
  const why = 'You get this email because you follow this thread (you started it or replied in it).';
  const subject = `${headline(d)} in "${d.title}"`;
  const text = [
    `${headline(d)} in "${d.title}" (${d.place}).`,
    ...d.replies.map((r) => `${r.author} wrote:\n${r.excerpt}`),
    ...(moreText ? [moreText] : []),
    `Read ${count === 1 ? 'the reply' : 'them'} and answer: ${d.threadUrl}`,
    `${why}\nMute this thread: ${d.muteUrl}\nTurn off all reply emails: ${d.unsubscribeUrl}`,
  ].join('\n\n');
  return {
    subject,
    html: layout({
      siteUrl,
      preheader: d.replies[0] ? `${d.replies[0].author}: ${d.replies[0].excerpt}` : subject,
      content: html`<p style="margin:0 0 4px;color:#64748b;font-size:14px">${d.place}</p>
<h1 style="font-size:22px;line-height:1.3;margin:0 0 16px">${d.title}</h1>
<p style="margin:0 0 16px">${headline(d)}:</p>
${d.replies.map((r) => html`<div style="${QUOTE}"><p style="margin:0 0 4px;font-weight:600">${r.author}</p><p style="margin:0;white-space:pre-line">${r.excerpt}</p></div>`)}
${moreText ? html`<p style="margin:0 0 16px">${moreText}</p>` : ''}
${button(d.threadUrl, count === 1 ? 'Read the reply' : 'Read the replies')}
<p style="${MUTED}">${why} <a href="${d.muteUrl}" style="color:#64748b">Mute this thread</a> · <a href="${d.unsubscribeUrl}" style="color:#64748b">Turn off all reply emails</a></p>`,
    }),
    text: textLayout(text),
    headers: listHeaders(d.oneClickUrl),
  };
}

/** The community's templates, by name. */
export const communityTemplates = {
  'community-replies': replies,
};
