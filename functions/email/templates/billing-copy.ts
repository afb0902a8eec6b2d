/**
 * The billing mails in the three languages members can choose: receipt when a plan starts,
 * cancellation scheduled, payment failed, plan ended, the receipt of a one-time purchase, and the
 * refund of a purchase whose item was gone before it could be given, and a trial that ends soon. Amounts arrive in cents; dates
 * as ISO strings, written out in the member's language. In test mode (the embedded test provider or
 * a Stripe test key) every billing mail says so in its subject and at its top. Longer than the
 * house's file size: it is copy, six mails in three languages, kept together so translators see it whole.
 */
import { SITE } from '#shared/site.ts';
import type { MailLanguage } from './account-copy.ts';

export interface PlanMailData {
  language?: MailLanguage;
  planName: string;
  /** Cents. */
  amount: number;
  interval: string;
  /** Next billing date, or the date access ends, or the date a scheduled change applies (ISO). */
  date: string;
  /** Payments run in test mode: no real money moved. */
  testMode?: boolean;
  /** Cents charged now for an upgrade's prorated difference, when the provider said. */
  charged?: number;
}

export interface PurchaseMailData {
  language?: MailLanguage;
  title: string;
  /** Cents. */
  amount: number;
  /** The item's page, where the download is. */
  url: string;
  /** Payments run in test mode: no real money moved. */
  testMode?: boolean;
}

export interface RefundMailData {
  language?: MailLanguage;
  title: string;
  /** Cents. */
  amount: number;
  /** Where to browse instead (the item's list), or the item itself when it was already owned. */
  url: string;
  testMode?: boolean;
  /** Why it was refunded: the item left the site mid-payment (default), or it was a second payment for an owned item. */
  reason?: 'item_unavailable' | 'already_owned';
}

/** The loud line of every billing mail in test mode, and its subject prefix. */
export const TEST_MODE: Record<MailLanguage, { note: string; subject: string }> = {
  en: { note: 'Test mode: no real payment was taken.', subject: '[Test mode]' },
  es: { note: 'Modo de prueba: no se ha cobrado ningún pago real.', subject: '[Modo de prueba]' },
  fr: { note: 'Mode test : aucun paiement réel n’a été encaissé.', subject: '[Mode test]' },
};

const LOCALE: Record<MailLanguage, string> = { en: 'en-US', es: 'es-ES', fr: 'fr-FR' };

export const money = (cents: number, lang: MailLanguage) =>
  new Intl.NumberFormat(LOCALE[lang], { style: 'currency', currency: 'USD' }).format(cents / 100);
export const longDate = (iso: string, lang: MailLanguage) =>
  new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

export interface BillingCopy {
  subject: (d: PlanMailData) => string;
  heading: string;
  /** `charged`: an upgrade's prorated charge, formatted, when known. */
  body: (d: PlanMailData, price: string, date: string, charged?: string) => string;
  action: string;
}

const PER: Record<MailLanguage, Record<string, string>> = {
  en: { month: 'month', year: 'year' },
  es: { month: 'mes', year: 'año' },
  fr: { month: 'mois', year: 'an' },
};
export const perInterval = (lang: MailLanguage, interval: string) => (Object.hasOwn(PER[lang], interval) ? PER[lang][interval]! : interval);

export const ACTIVATED: Record<MailLanguage, BillingCopy> = {
  en: {
    subject: (d) => `Your ${SITE.name} ${d.planName} plan is active`,
    heading: 'Thank you: your plan is active',
    body: (d, price, date) =>
      `Your ${d.planName} plan (${price}) has started and your access is open now. Your next billing date is ${date}.`,
    action: 'Go to my account',
  },
  es: {
    subject: (d) => `Tu plan ${d.planName} de ${SITE.name} está activo`,
    heading: 'Gracias: tu plan está activo',
    body: (d, price, date) => `Tu plan ${d.planName} (${price}) ha comenzado y ya tienes acceso. Tu próxima fecha de cobro es el ${date}.`,
    action: 'Ir a mi cuenta',
  },
  fr: {
    subject: (d) => `Votre formule ${d.planName} ${SITE.name} est active`,
    heading: 'Merci : votre formule est active',
    body: (d, price, date) =>
      `Votre formule ${d.planName} (${price}) a commencé et votre accès est ouvert. Votre prochaine date de facturation est le ${date}.`,
    action: 'Aller à mon compte',
  },
};

/** The receipt of an upgrade (a higher plan now, the prorated difference charged today). */
export const UPGRADED: Record<MailLanguage, BillingCopy> = {
  en: {
    subject: (d) => `Your ${SITE.name} plan is now ${d.planName}`,
    heading: 'Your upgrade is active',
    body: (d, price, date, charged) =>
      `Your plan is now ${d.planName} (${price}) and everything it includes is open to you now.${charged ? ` Today we charged ${charged}: the difference for the rest of your current period.` : ''} Your next billing date is ${date}.`,
    action: 'Go to my account',
  },
  es: {
    subject: (d) => `Tu plan de ${SITE.name} ahora es ${d.planName}`,
    heading: 'Tu mejora de plan está activa',
    body: (d, price, date, charged) =>
      `Tu plan ahora es ${d.planName} (${price}) y ya tienes acceso a todo lo que incluye.${charged ? ` Hoy te hemos cobrado ${charged}: la diferencia por lo que queda de tu periodo actual.` : ''} Tu próxima fecha de cobro es el ${date}.`,
    action: 'Ir a mi cuenta',
  },
  fr: {
    subject: (d) => `Votre formule ${SITE.name} est désormais ${d.planName}`,
    heading: 'Votre changement de formule est actif',
    body: (d, price, date, charged) =>
      `Votre formule est désormais ${d.planName} (${price}) et tout ce qu’elle comprend vous est ouvert dès maintenant.${charged ? ` Nous avons prélevé ${charged} aujourd’hui : la différence pour le reste de votre période en cours.` : ''} Votre prochaine date de facturation est le ${date}.`,
    action: 'Aller à mon compte',
  },
};

/** A change to a lower plan (or monthly from yearly), held for the end of the period already paid for. */
export const CHANGE_SCHEDULED: Record<MailLanguage, BillingCopy> = {
  en: {
    subject: () => `Your ${SITE.name} plan change is scheduled`,
    heading: 'Your plan change is scheduled',
    body: (d, price, date) =>
      `Your plan changes to ${d.planName} (${price}) on ${date}, when the period you have paid for ends. Until then you keep everything your current plan includes. Changed your mind? Keep your current plan from your account before that date.`,
    action: 'Manage my plan',
  },
  es: {
    subject: () => `Tu cambio de plan en ${SITE.name} está programado`,
    heading: 'Tu cambio de plan está programado',
    body: (d, price, date) =>
      `Tu plan cambiará a ${d.planName} (${price}) el ${date}, cuando termine el periodo que ya has pagado. Hasta entonces conservas todo lo que incluye tu plan actual. ¿Has cambiado de idea? Mantén tu plan actual desde tu cuenta antes de esa fecha.`,
    action: 'Gestionar mi plan',
  },
  fr: {
    subject: () => `Votre changement de formule ${SITE.name} est programmé`,
    heading: 'Votre changement de formule est programmé',
    body: (d, price, date) =>
      `Votre formule passera à ${d.planName} (${price}) le ${date}, à la fin de la période que vous avez payée. D’ici là, vous gardez tout ce que comprend votre formule actuelle. Vous avez changé d’avis ? Gardez votre formule actuelle depuis votre compte avant cette date.`,
    action: 'Gérer ma formule',
  },
};

export const CANCEL_SCHEDULED: Record<MailLanguage, BillingCopy> = {
  en: {
    subject: () => `Your ${SITE.name} plan will end`,
    heading: 'Your cancellation is scheduled',
    body: (d, _price, date) =>
      `Your ${d.planName} plan has been canceled. You keep your access until ${date}, and you can reactivate it from your account before then.`,
    action: 'Manage my plan',
  },
  es: {
    subject: () => `Tu plan de ${SITE.name} terminará`,
    heading: 'Tu cancelación está programada',
    body: (d, _price, date) =>
      `Tu plan ${d.planName} ha sido cancelado. Conservas el acceso hasta el ${date} y puedes reactivarlo desde tu cuenta antes de esa fecha.`,
    action: 'Gestionar mi plan',
  },
  fr: {
    subject: () => `Votre formule ${SITE.name} va prendre fin`,
    heading: 'Votre résiliation est programmée',
    body: (d, _price, date) =>
      `Votre formule ${d.planName} a été résiliée. Vous gardez votre accès jusqu’au ${date} et pouvez la réactiver depuis votre compte d’ici là.`,
    action: 'Gérer ma formule',
  },
};

export const PAYMENT_FAILED: Record<MailLanguage, BillingCopy> = {
  en: {
    subject: () => `Action needed: your ${SITE.name} payment failed`,
    heading: 'We could not take your payment',
    body: (d, price) =>
      `The payment of ${price} for your ${d.planName} plan failed. Your access continues while we try again; please update your card from your account so it does not end.`,
    action: 'Update my card',
  },
  es: {
    subject: () => `Acción necesaria: falló tu pago en ${SITE.name}`,
    heading: 'No pudimos cobrar tu pago',
    body: (d, price) =>
      `El pago de ${price} de tu plan ${d.planName} ha fallado. Tu acceso continúa mientras lo intentamos de nuevo; actualiza tu tarjeta desde tu cuenta para que no termine.`,
    action: 'Actualizar mi tarjeta',
  },
  fr: {
    subject: () => `Action requise : votre paiement ${SITE.name} a échoué`,
    heading: 'Nous n’avons pas pu encaisser votre paiement',
    body: (d, price) =>
      `Le paiement de ${price} pour votre formule ${d.planName} a échoué. Votre accès continue pendant que nous réessayons ; mettez à jour votre carte depuis votre compte pour qu’il ne s’arrête pas.`,
    action: 'Mettre à jour ma carte',
  },
};

export const ENDED: Record<MailLanguage, BillingCopy> = {
  en: {
    subject: () => `Your ${SITE.name} plan has ended`,
    heading: 'Your plan has ended',
    body: (d) => `Your ${d.planName} plan has ended and your account is back on the free level. You can choose a plan again at any time.`,
    action: 'See the plans',
  },
  es: {
    subject: () => `Tu plan de ${SITE.name} ha terminado`,
    heading: 'Tu plan ha terminado',
    body: (d) => `Tu plan ${d.planName} ha terminado y tu cuenta vuelve al nivel gratuito. Puedes elegir un plan de nuevo cuando quieras.`,
    action: 'Ver los planes',
  },
  fr: {
    subject: () => `Votre formule ${SITE.name} est terminée`,
    heading: 'Votre formule est terminée',
    body: (d) =>
      `Votre formule ${d.planName} est terminée et votre compte revient au niveau gratuit. Vous pouvez choisir une formule à tout moment.`,
    action: 'Voir les formules',
  },
};

/** A free trial ends in three days: the first charge then, unless the member cancels. */
export const TRIAL_ENDING: Record<MailLanguage, BillingCopy> = {
  en: {
    subject: () => `Your ${SITE.name} free trial ends soon`,
    heading: 'Your free trial ends soon',
    body: (d, price, date) =>
      `Your free trial of ${d.planName} ends on ${date}. Your plan then continues at ${price} unless you cancel from your account before that date.`,
    action: 'Manage my plan',
  },
  es: {
    subject: () => `Tu prueba gratuita de ${SITE.name} termina pronto`,
    heading: 'Tu prueba gratuita termina pronto',
    body: (d, price, date) =>
      `Tu prueba gratuita de ${d.planName} termina el ${date}. Después tu plan continúa a ${price}, salvo que lo canceles desde tu cuenta antes de esa fecha.`,
    action: 'Gestionar mi plan',
  },
  fr: {
    subject: () => `Votre essai gratuit ${SITE.name} se termine bientôt`,
    heading: 'Votre essai gratuit se termine bientôt',
    body: (d, price, date) =>
      `Votre essai gratuit de ${d.planName} se termine le ${date}. Votre formule continue ensuite à ${price}, sauf si vous l’annulez depuis votre compte avant cette date.`,
    action: 'Gérer ma formule',
  },
};

export const PURCHASED: Record<
  MailLanguage,
  { subject: (title: string) => string; heading: string; body: (title: string, price: string) => string; action: string }
> = {
  en: {
    subject: (title) => `Your receipt for ${title}`,
    heading: 'Thank you for your purchase',
    body: (title, price) => `You bought ${title} for ${price}. It is yours to download whenever you are signed in.`,
    action: 'Download it',
  },
  es: {
    subject: (title) => `Tu recibo de ${title}`,
    heading: 'Gracias por tu compra',
    body: (title, price) => `Compraste ${title} por ${price}. Puedes descargarlo siempre que inicies sesión.`,
    action: 'Descargarlo',
  },
  fr: {
    subject: (title) => `Votre reçu pour ${title}`,
    heading: 'Merci pour votre achat',
    body: (title, price) => `Vous avez acheté ${title} pour ${price}. Il est à vous : téléchargez-le dès que vous êtes connecté.`,
    action: 'Le télécharger',
  },
};

export const REFUNDED: Record<
  MailLanguage,
  {
    subject: (title: string) => string;
    heading: string;
    body: (title: string, price: string) => string;
    ownedBody: (title: string, price: string) => string;
    action: string;
  }
> = {
  en: {
    subject: (title) => `Your payment for ${title} was refunded`,
    heading: 'Your payment has been refunded',
    body: (title, price) =>
      `${title} was taken off the site while you were paying, so we could not give it to you. We refunded your payment of ${price} in full; it can take 5 to 10 days to reach your card.`,
    ownedBody: (title, price) =>
      `You already own ${title}, so we refunded this second payment of ${price} in full; it can take 5 to 10 days to reach your card.`,
    action: 'Browse the site',
  },
  es: {
    subject: (title) => `Hemos reembolsado tu pago de ${title}`,
    heading: 'Tu pago ha sido reembolsado',
    body: (title, price) =>
      `${title} se retiró del sitio mientras pagabas, así que no pudimos dártelo. Te hemos reembolsado el pago de ${price} completo; puede tardar de 5 a 10 días en llegar a tu tarjeta.`,
    ownedBody: (title, price) =>
      `Ya tienes ${title}, así que te hemos reembolsado este segundo pago de ${price} completo; puede tardar de 5 a 10 días en llegar a tu tarjeta.`,
    action: 'Ver el sitio',
  },
  fr: {
    subject: (title) => `Votre paiement pour ${title} a été remboursé`,
    heading: 'Votre paiement a été remboursé',
    body: (title, price) =>
      `${title} a été retiré du site pendant votre paiement : nous ne pouvions donc pas vous le fournir. Nous avons remboursé l’intégralité de votre paiement de ${price} ; le remboursement peut prendre 5 à 10 jours pour apparaître sur votre carte.`,
    ownedBody: (title, price) =>
      `Vous possédez déjà ${title} : nous avons donc remboursé l’intégralité de ce second paiement de ${price} ; le remboursement peut prendre 5 à 10 jours pour apparaître sur votre carte.`,
    action: 'Parcourir le site',
  },
};
