import { describe, expect, it } from 'vitest';
import { escapeHtml, html, paragraphs, safe } from './html.ts';
import { renderEmail, TEMPLATE_NAMES, type TemplateData, type TemplateName } from './index.ts';

const ctx = { siteUrl: 'https://www.beacongrowth.co' };
const hostile = '<script>alert("x")</script> & \'quotes\'';

const SAMPLE: { [N in TemplateName]: TemplateData<N> } = {
  'newsletter-confirm': {
    confirmUrl: 'https://x.test/c?token=a',
    unsubscribeUrl: 'https://x.test/u?token=b',
    oneClickUrl: 'https://x.test/api/u?token=b',
  },
  'newsletter-welcome': { unsubscribeUrl: 'https://x.test/u?token=b', oneClickUrl: 'https://x.test/api/u?token=b' },
  'newsletter-issue': {
    subject: hostile,
    previewText: hostile,
    contentHtml: '<p>The public part, rendered and sanitised by the server.</p>',
    contentText: 'The public part, rendered and sanitised by the server.',
    cta: { text: 'The rest of this issue is for Premium members.', label: 'Upgrade to read the rest', url: 'https://x.test/pricing' },
    webUrl: 'https://x.test/newsletter/issue',
    unsubscribeUrl: 'https://x.test/u?token=b',
    oneClickUrl: 'https://x.test/api/u?token=b',
  },
  'contact-notification': { name: hostile, email: 'a@example.com', subject: hostile, message: hostile, receivedAt: 'now' },
  'contact-acknowledgement': {},
  'lead-download': { toolTitle: hostile, toolUrl: 'https://x.test/tools/t', downloadUrl: 'https://x.test/d?token=c', validDays: 7 },
  'account-deleted': {},
  'auth-confirm-signup': { url: 'https://x.test/auth/v1/verify?token=a&type=signup', code: '012345', validMinutes: 60 },
  'auth-recovery': { url: 'https://x.test/auth/v1/verify?token=a&type=recovery', code: '012345', validMinutes: 60 },
  'auth-magic-link': { url: 'https://x.test/auth/v1/verify?token=a&type=magiclink', code: '012345', validMinutes: 60 },
  'auth-email-change': { url: 'https://x.test/auth/v1/verify?token=a&type=email_change', code: '012345', validMinutes: 60 },
  'auth-reauthentication': { code: '012345', validMinutes: 60 },
  'auth-password-changed': { changedAt: '2026-11-24T16:05:00.000Z' },
  'billing-activated': { planName: hostile, amount: 19190, interval: 'year', date: '2027-11-23T10:00:00.000Z' },
  'billing-cancel-scheduled': { planName: 'Premium', amount: 1999, interval: 'month', date: '2026-12-23T10:00:00.000Z' },
  'billing-payment-failed': { planName: 'Subscriber', amount: 999, interval: 'month', date: '2026-12-23T10:00:00.000Z' },
  'billing-ended': { planName: 'Premium', amount: 1999, interval: 'month', date: '2026-12-23T10:00:00.000Z' },
  'billing-upgraded': { planName: hostile, amount: 1999, interval: 'month', date: '2026-12-23T10:00:00.000Z', charged: 512 },
  'billing-change-scheduled': { planName: hostile, amount: 999, interval: 'month', date: '2026-12-23T10:00:00.000Z' },
  'billing-trial-ending': {
    language: 'fr',
    planName: hostile,
    amount: 1999,
    interval: 'month',
    date: '2026-12-23T10:00:00.000Z',
    testMode: true,
  },
  'billing-purchase': { title: hostile, amount: 2999, url: 'https://x.test/market/m' },
  'billing-refunded': { title: hostile, amount: 2999, url: 'https://x.test/market', testMode: true },
  'gift-received': {
    from: hostile,
    recipientName: hostile,
    what: 'Premium, 3 months',
    message: hostile,
    url: 'https://x.test/gift/redeem?code=A',
    expiresAt: '2027-11-29T10:00:00.000Z',
  },
  'gift-purchased': {
    language: 'es',
    what: 'Premium, 3 months',
    amount: 5997,
    recipient: 'ana@x.test',
    deliverAt: '2026-12-24T10:00:00.000Z',
    url: 'https://x.test/account',
    testMode: true,
  },
  'access-ending': {
    language: 'es',
    grant: {
      id: 'g',
      accessLevel: 'premium',
      source: 'gift',
      startsAt: '2026-12-12T00:00:00.000Z',
      endsAt: '2027-03-12T00:00:00.000Z',
      active: true,
      from: hostile,
    },
  },
  'access-ended': {
    grant: {
      id: 'g',
      accessLevel: 'subscriber',
      source: 'comp',
      startsAt: '2026-12-12T00:00:00.000Z',
      endsAt: '2027-01-12T00:00:00.000Z',
      active: false,
    },
  },
  'event-registered': {
    title: hostile,
    url: 'https://x.test/events/e',
    startsAt: '2026-12-10T15:00:00.000Z',
    timeZone: 'Europe/London',
    durationMinutes: 60,
    host: hostile,
  },
  'event-reminder': {
    title: hostile,
    url: 'https://x.test/events/e',
    startsAt: '2026-12-10T15:00:00.000Z',
    timeZone: 'America/New_York',
    durationMinutes: 45,
    host: 'Beacon Growth Team',
    address: hostile,
    startsIn: '24 hours',
  },
  'event-moved': {
    title: hostile,
    url: 'https://x.test/events/e',
    startsAt: '2026-12-11T15:00:00.000Z',
    previousStartsAt: '2026-12-10T15:00:00.000Z',
    timeZone: 'Europe/London',
    durationMinutes: 60,
    host: hostile,
  },
  'event-cancelled': {
    title: hostile,
    url: 'https://x.test/events/e',
    startsAt: '2026-12-10T15:00:00.000Z',
    timeZone: 'Europe/London',
    durationMinutes: 60,
    host: 'Beacon Growth Team',
  },
  'community-replies': {
    title: hostile,
    place: hostile,
    threadUrl: 'https://x.test/community/threads/t',
    muteUrl: 'https://x.test/m?token=m',
    unsubscribeUrl: 'https://x.test/u?token=b',
    oneClickUrl: 'https://x.test/api/u?token=b',
    replies: [
      { author: hostile, excerpt: hostile },
      { author: 'Grace', excerpt: 'Second reply' },
    ],
    more: 2,
  },
  'support-request-opened': {
    subject: hostile,
    message: hostile,
    member: hostile,
    level: 'premium',
    priority: true,
    respondBy: '2026-11-30T20:00:00.000Z',
    url: 'https://x.test/admin',
  },
  'support-reply': { subject: hostile, reply: hostile, staff: hostile, url: 'https://x.test/account/support?request=r' },
};

describe('account security mails', () => {
  it('the password-changed mail says when, in the member’s language, and links to a reset', () => {
    for (const language of ['en', 'es', 'fr'] as const) {
      const mail = renderEmail('auth-password-changed', { changedAt: '2026-11-24T16:05:00.000Z', language }, ctx);
      expect(mail.html).toContain(`<html lang="${language}">`);
      expect(mail.text).toContain('https://www.beacongrowth.co/forgot-password');
      expect(mail.text).toMatch(/2026/);
      expect(mail.text).toMatch(/24/);
    }
  });

  it('the reauthentication mail carries the code and no link to follow', () => {
    const mail = renderEmail('auth-reauthentication', { code: '481516', validMinutes: 10 }, ctx);
    expect(mail.text).toContain('481516');
    expect(mail.text).toContain('10 minutes');
    expect(mail.text).not.toMatch(/verify\?/);
  });
});

describe('billing mails in the member’s language', () => {
  const plan = { planName: 'Premium', amount: 19190, interval: 'year', date: '2027-11-23T10:00:00.000Z' };
  it.each([
    ['en', '$191.90/year', 'November 23, 2027'],
    ['es', '191,90 US$/año', '23 de noviembre de 2027'],
    ['fr', '191,90 $US/an', '23 novembre 2027'],
  ] as const)('the receipt in %s names the price and the next billing date', (language, price, date) => {
    const mail = renderEmail('billing-activated', { ...plan, language }, ctx);
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.text.replace(/\u00a0|\u202f/g, ' ')).toContain(price);
    expect(mail.text).toContain(date);
  });
  it.each([
    ['en', 'Today we charged $5.12', 'Your next billing date is December 23, 2026'],
    ['es', 'Hoy te hemos cobrado 5,12 US$', '23 de diciembre de 2026'],
    ['fr', 'Nous avons prélevé 5,12 $US', '23 décembre 2026'],
  ] as const)('the upgrade receipt in %s says what the proration charged and the next billing date', (language, charged, date) => {
    const mail = renderEmail(
      'billing-upgraded',
      { ...plan, amount: 1999, interval: 'month', date: '2026-12-23T10:00:00.000Z', charged: 512, language },
      ctx,
    );
    expect(mail.text.replace(/\u00a0|\u202f/g, ' ')).toContain(charged);
    expect(mail.text).toContain(date);
    // Nothing charged (credit covered it): no charge line at all.
    expect(renderEmail('billing-upgraded', { ...plan, charged: 0, language }, ctx).text.replace(/\u00a0|\u202f/g, ' ')).not.toContain(
      charged.split(' ').slice(0, 3).join(' '),
    );
  });
  it('tells the new plan and the date a scheduled change applies', () => {
    const mail = renderEmail(
      'billing-change-scheduled',
      { planName: 'Subscriber', amount: 999, interval: 'month', date: '2026-12-23T10:00:00.000Z' },
      ctx,
    );
    expect(mail.text).toContain('Your plan changes to Subscriber ($9.99/month) on December 23, 2026');
  });
  it('tells the date access ends when a cancellation is scheduled', () => {
    const mail = renderEmail('billing-cancel-scheduled', { ...plan, date: '2026-12-23T10:00:00.000Z' }, ctx);
    expect(mail.text).toContain('You keep your access until December 23, 2026');
  });
  it.each([
    ['en', '[Test mode] ', 'Test mode: no real payment was taken.'],
    ['es', '[Modo de prueba] ', 'Modo de prueba: no se ha cobrado ningún pago real.'],
    ['fr', '[Mode test] ', 'Mode test : aucun paiement réel n’a été encaissé.'],
  ] as const)('says loudly in %s that a test-mode receipt took no real payment', (language, prefix, note) => {
    const receipts = [
      renderEmail('billing-activated', { ...plan, language, testMode: true }, ctx),
      renderEmail('billing-purchase', { title: 'Kit', amount: 2400, url: 'https://x.test/market/kit', language, testMode: true }, ctx),
    ];
    for (const mail of receipts) {
      expect(mail.subject.startsWith(prefix)).toBe(true);
      expect(mail.text.startsWith(note)).toBe(true);
      expect(mail.html).toContain(note);
    }
    // Live receipts carry none of it.
    const live = renderEmail('billing-purchase', { title: 'Kit', amount: 2400, url: 'https://x.test/market/kit', language }, ctx);
    expect(live.subject.startsWith('[')).toBe(false);
    expect(live.text).not.toContain(note);
  });
  it('tells a member their payment for an item gone from the site was refunded', () => {
    const mail = renderEmail('billing-refunded', { title: 'Kit', amount: 2400, url: 'https://x.test/market' }, ctx);
    expect(mail.subject).toBe('Your payment for Kit was refunded');
    expect(mail.text).toContain('We refunded your payment of $24.00 in full');
  });
});

describe('account mails in the member’s language', () => {
  const link = { url: 'https://x.test/auth/v1/verify?token=a', code: '012345', validMinutes: 60 };
  it.each([
    ['en', 'Reset your Beacon Growth password', 'Or enter this code:'],
    ['es', 'Restablece tu contraseña de Beacon Growth', 'O introduce este código:'],
    ['fr', 'Réinitialisez votre mot de passe Beacon Growth', 'Ou saisissez ce code :'],
  ] as const)('recovery in %s', (language, subject, codeLabel) => {
    const mail = renderEmail('auth-recovery', { ...link, language }, ctx);
    expect(mail.subject).toBe(subject);
    expect(mail.html).toContain(`<html lang="${language}">`);
    expect(mail.text).toContain(`${codeLabel} 012345`);
  });
  it('says goodbye in French to a French-speaking member', () => {
    expect(renderEmail('account-deleted', { language: 'fr' }, ctx).subject).toBe('Votre compte Beacon Growth a été supprimé');
    expect(renderEmail('account-deleted', {}, ctx).subject).toBe('Your Beacon Growth account has been deleted');
  });
});

describe('email templates', () => {
  it.each(TEMPLATE_NAMES)('%s renders a subject, an HTML part in the layout and a plain-text part', (name) => {
    const mail = renderEmail(name, SAMPLE[name] as never, ctx);
    expect(mail.subject.length).toBeGreaterThan(5);
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.html).toMatch(/^<!doctype html>/);
    expect(mail.html).toContain('Beacon Growth');
    // The text part carries user text verbatim; apart from it, no markup.
    expect(mail.text.replaceAll(hostile, '')).not.toMatch(/<\/?(p|a|table|div|script|br)\b/);
    expect(mail.text).toContain('Baltimore, Maryland');
  });

  it.each(TEMPLATE_NAMES)('%s escapes every value in the HTML part', (name) => {
    const mail = renderEmail(name, SAMPLE[name] as never, ctx);
    expect(mail.html).not.toContain('<script>');
    if (JSON.stringify(SAMPLE[name]).includes('script')) expect(mail.html).toContain('&lt;script&gt;');
  });

  it('puts confirm and unsubscribe links and one-click headers in newsletter mail', () => {
    const mail = renderEmail('newsletter-confirm', SAMPLE['newsletter-confirm'], ctx);
    expect(mail.html).toContain('href="https://x.test/c?token=a"');
    expect(mail.text).toContain('https://x.test/c?token=a');
    expect(mail.text).toContain('Unsubscribe: https://x.test/u?token=b');
    expect(mail.headers).toEqual({
      'List-Unsubscribe': '<https://x.test/api/u?token=b>, <mailto:hello@beacongrowth.co?subject=unsubscribe>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it('tells staff a Priority request came and when it is due, in New York time', () => {
    const mail = renderEmail('support-request-opened', SAMPLE['support-request-opened'], ctx);
    expect(mail.subject).toBe(`[Priority] Support request: ${hostile}`);
    expect(mail.text).toContain('First response by: Mon 30 Nov 2026, 15:00 EST (America/New_York)');
    expect(mail.html).toContain('href="https://x.test/admin"');
    const plain = renderEmail('support-request-opened', { ...SAMPLE['support-request-opened'], priority: false }, ctx);
    expect(plain.subject).toBe(`Support request: ${hostile}`);
  });

  it("mails staff's reply to the member with a link back to the conversation", () => {
    const mail = renderEmail('support-reply', SAMPLE['support-reply'], ctx);
    expect(mail.subject).toBe(`Re: ${hostile}`);
    expect(mail.text).toContain(`${hostile}\n\nView the conversation: https://x.test/account/support?request=r`);
    expect(mail.html).toContain('href="https://x.test/account/support?request=r"');
  });

  it('lists the replies as text with the thread, mute and one-click unsubscribe links in the reply mail', () => {
    const mail = renderEmail('community-replies', SAMPLE['community-replies'], ctx);
    expect(mail.subject).toBe(`4 new replies in "${hostile}"`);
    expect(mail.text).toContain(`${hostile} wrote:\n${hostile}`);
    expect(mail.text).toContain('Grace wrote:\nSecond reply');
    expect(mail.text).toContain('And 2 more replies on the page.');
    expect(mail.text).toContain('Mute this thread: https://x.test/m?token=m');
    expect(mail.text).toContain('Turn off all reply emails: https://x.test/u?token=b');
    expect(mail.html).toContain('href="https://x.test/community/threads/t"');
    expect(mail.html).toContain('href="https://x.test/m?token=m"');
    expect(mail.headers).toEqual({
      'List-Unsubscribe': '<https://x.test/api/u?token=b>, <mailto:hello@beacongrowth.co?subject=unsubscribe>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    const one = renderEmail(
      'community-replies',
      { ...SAMPLE['community-replies'], replies: [{ author: 'Ada', excerpt: 'Hi' }], more: 0 },
      ctx,
    );
    expect(one.subject).toBe(`Ada replied in "${hostile}"`);
    expect(one.text).not.toContain('more repl');
  });

  it('addresses the inbox notification so a reply goes to the sender', () => {
    expect(renderEmail('contact-notification', SAMPLE['contact-notification'], ctx).replyTo).toBe('a@example.com');
  });

  it('promises a reply within 24 hours in the acknowledgement', () => {
    expect(renderEmail('contact-acknowledgement', SAMPLE['contact-acknowledgement'], ctx).text).toContain('within 24 hours');
  });

  it('acknowledges in our own words: nothing the visitor typed reaches the unverified address', () => {
    // The template takes no visitor data at all; the type makes quoting impossible.
    const ack = renderEmail('contact-acknowledgement', {}, ctx);
    expect(ack.subject).toBe('We received your message');
    const lead = renderEmail('lead-download', SAMPLE['lead-download'], ctx);
    expect(lead.text.startsWith('Here you go\n')).toBe(true);
  });
});

describe('html helpers', () => {
  it('escapes interpolations but keeps safe fragments and arrays', () => {
    expect(html`<p>${'<b>'}</p>${safe('<br>')}${['<i>', safe('<hr>')]}`.__html).toBe('<p>&lt;b&gt;</p><br>&lt;i&gt;<hr>');
    expect(escapeHtml(`"'&<>`)).toBe('&quot;&#39;&amp;&lt;&gt;');
  });

  it('turns blank-line separated text into escaped paragraphs with line breaks', () => {
    expect(paragraphs('a<b\nc\n\nd').__html).toBe('<p style="margin:0 0 16px">a&lt;b<br>c</p><p style="margin:0 0 16px">d</p>');
  });
});
