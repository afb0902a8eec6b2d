/**
 * The copy of the account mails in the three languages members can choose (English, Spanish,
 * French). A member's emails use the language saved on their profile; new sign-ups get English.
 */
import { SITE } from '#shared/site.ts';
import type { Language } from '#shared/languages.ts';

/** The languages a member can choose for their emails (the profile's). */
export type MailLanguage = Language;

export interface LinkMailCopy {
  subject: string;
  heading: string;
  intro: string;
  action: string;
  outro: string;
}

export interface SharedCopy {
  /** "Or enter this code:" */
  codeLabel: string;
  /** How long link and code work. */
  validity: (minutes: number) => string;
}

export const SHARED: Record<MailLanguage, SharedCopy> = {
  en: { codeLabel: 'Or enter this code:', validity: (m) => `The link and the code work for ${m} minutes, once.` },
  es: { codeLabel: 'O introduce este código:', validity: (m) => `El enlace y el código funcionan durante ${m} minutos, una sola vez.` },
  fr: { codeLabel: 'Ou saisissez ce code :', validity: (m) => `Le lien et le code fonctionnent pendant ${m} minutes, une seule fois.` },
};

export const CONFIRM_SIGNUP: Record<MailLanguage, LinkMailCopy> = {
  en: {
    subject: `Confirm your ${SITE.name} account`,
    heading: 'Confirm your email address',
    intro: `Welcome to ${SITE.name}. Confirm that this address is yours to finish creating your account:`,
    action: 'Confirm my account',
    outro: 'If you did not create an account, ignore this message: nothing happens without confirmation.',
  },
  es: {
    subject: `Confirma tu cuenta de ${SITE.name}`,
    heading: 'Confirma tu dirección de correo',
    intro: `Bienvenido a ${SITE.name}. Confirma que esta dirección es tuya para terminar de crear tu cuenta:`,
    action: 'Confirmar mi cuenta',
    outro: 'Si no creaste una cuenta, ignora este mensaje: sin confirmación no ocurre nada.',
  },
  fr: {
    subject: `Confirmez votre compte ${SITE.name}`,
    heading: 'Confirmez votre adresse e-mail',
    intro: `Bienvenue chez ${SITE.name}. Confirmez que cette adresse est la vôtre pour terminer la création de votre compte :`,
    action: 'Confirmer mon compte',
    outro: 'Si vous n’avez pas créé de compte, ignorez ce message : rien ne se passe sans confirmation.',
  },
};

export const RECOVERY: Record<MailLanguage, LinkMailCopy> = {
  en: {
    subject: `Reset your ${SITE.name} password`,
    heading: 'Reset your password',
    intro: 'Someone (hopefully you) asked to reset the password of your account. Choose a new one here:',
    action: 'Choose a new password',
    outro: 'If you did not ask for this, ignore this message: your password stays as it is.',
  },
  es: {
    subject: `Restablece tu contraseña de ${SITE.name}`,
    heading: 'Restablece tu contraseña',
    intro: 'Alguien (esperamos que tú) pidió restablecer la contraseña de tu cuenta. Elige una nueva aquí:',
    action: 'Elegir una nueva contraseña',
    outro: 'Si no lo pediste, ignora este mensaje: tu contraseña no cambia.',
  },
  fr: {
    subject: `Réinitialisez votre mot de passe ${SITE.name}`,
    heading: 'Réinitialisez votre mot de passe',
    intro: 'Quelqu’un (vous, espérons-le) a demandé à réinitialiser le mot de passe de votre compte. Choisissez-en un nouveau ici :',
    action: 'Choisir un nouveau mot de passe',
    outro: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe reste inchangé.',
  },
};

export const MAGIC_LINK: Record<MailLanguage, LinkMailCopy> = {
  en: {
    subject: `Your ${SITE.name} sign-in link`,
    heading: 'Sign in',
    intro: 'Use this link to sign in to your account:',
    action: 'Sign in',
    outro: 'If you did not ask for this link, ignore this message.',
  },
  es: {
    subject: `Tu enlace para iniciar sesión en ${SITE.name}`,
    heading: 'Iniciar sesión',
    intro: 'Usa este enlace para iniciar sesión en tu cuenta:',
    action: 'Iniciar sesión',
    outro: 'Si no pediste este enlace, ignora este mensaje.',
  },
  fr: {
    subject: `Votre lien de connexion ${SITE.name}`,
    heading: 'Connexion',
    intro: 'Utilisez ce lien pour vous connecter à votre compte :',
    action: 'Me connecter',
    outro: 'Si vous n’avez pas demandé ce lien, ignorez ce message.',
  },
};

export const EMAIL_CHANGE: Record<MailLanguage, LinkMailCopy> = {
  en: {
    subject: `Confirm the new email address of your ${SITE.name} account`,
    heading: 'Confirm your email change',
    intro:
      'Someone (hopefully you) asked to change the email address of your account. Confirm it from both the old and the new address to complete the change:',
    action: 'Confirm the change',
    outro: 'If you did not ask for this, ignore this message: your address stays as it is.',
  },
  es: {
    subject: `Confirma la nueva dirección de correo de tu cuenta de ${SITE.name}`,
    heading: 'Confirma el cambio de correo',
    intro:
      'Alguien (esperamos que tú) pidió cambiar la dirección de correo de tu cuenta. Confírmalo desde la dirección antigua y desde la nueva para completar el cambio:',
    action: 'Confirmar el cambio',
    outro: 'Si no lo pediste, ignora este mensaje: tu dirección no cambia.',
  },
  fr: {
    subject: `Confirmez la nouvelle adresse e-mail de votre compte ${SITE.name}`,
    heading: 'Confirmez le changement d’adresse',
    intro:
      'Quelqu’un (vous, espérons-le) a demandé à changer l’adresse e-mail de votre compte. Confirmez-le depuis l’ancienne et la nouvelle adresse pour terminer :',
    action: 'Confirmer le changement',
    outro: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre adresse reste inchangée.',
  },
};

export interface DeletedCopy {
  subject: string;
  heading: string;
  body: string;
  notYou: string;
  signOff: string;
  team: string;
}

export const ACCOUNT_DELETED: Record<MailLanguage, DeletedCopy> = {
  en: {
    subject: `Your ${SITE.name} account has been deleted`,
    heading: 'Your account has been deleted',
    body: `As you asked, we deleted your ${SITE.name} account, your profile, your newsletter subscription and the details you left when downloading our tools.`,
    notYou: 'If you did not ask for this, reply to this message and we will look into it straight away.',
    signOff: 'Thank you for the time you spent with us,',
    team: `The ${SITE.name} team`,
  },
  es: {
    subject: `Tu cuenta de ${SITE.name} ha sido eliminada`,
    heading: 'Tu cuenta ha sido eliminada',
    body: `Como pediste, eliminamos tu cuenta de ${SITE.name}, tu perfil, tu suscripción al boletín y los datos que dejaste al descargar nuestras herramientas.`,
    notYou: 'Si no lo pediste, responde a este mensaje y lo revisaremos de inmediato.',
    signOff: 'Gracias por el tiempo que pasaste con nosotros,',
    team: `El equipo de ${SITE.name}`,
  },
  fr: {
    subject: `Votre compte ${SITE.name} a été supprimé`,
    heading: 'Votre compte a été supprimé',
    body: `Comme vous l’avez demandé, nous avons supprimé votre compte ${SITE.name}, votre profil, votre abonnement à la newsletter et les informations laissées lors du téléchargement de nos outils.`,
    notYou: 'Si vous n’êtes pas à l’origine de cette demande, répondez à ce message et nous vérifierons immédiatement.',
    signOff: 'Merci pour le temps passé avec nous,',
    team: `L’équipe ${SITE.name}`,
  },
};

export interface CodeMailCopy {
  subject: string;
  heading: string;
  intro: string;
  validity: (minutes: number) => string;
  outro: string;
}

/** The reauthentication code (GoTrue's "reauthentication" mail): a code only, typed where it was asked for. */
export const REAUTHENTICATION: Record<MailLanguage, CodeMailCopy> = {
  en: {
    subject: `Your ${SITE.name} confirmation code`,
    heading: 'Confirm it is you',
    intro: 'Enter this code to confirm a change to your account:',
    validity: (m) => `The code works for ${m} minutes, once.`,
    outro: 'If you did not ask for this code, someone may be using your account: reset your password.',
  },
  es: {
    subject: `Tu código de confirmación de ${SITE.name}`,
    heading: 'Confirma que eres tú',
    intro: 'Introduce este código para confirmar un cambio en tu cuenta:',
    validity: (m) => `El código funciona durante ${m} minutos, una sola vez.`,
    outro: 'Si no pediste este código, alguien podría estar usando tu cuenta: restablece tu contraseña.',
  },
  fr: {
    subject: `Votre code de confirmation ${SITE.name}`,
    heading: 'Confirmez que c’est bien vous',
    intro: 'Saisissez ce code pour confirmer une modification de votre compte :',
    validity: (m) => `Le code fonctionne pendant ${m} minutes, une seule fois.`,
    outro: 'Si vous n’avez pas demandé ce code, quelqu’un utilise peut-être votre compte : réinitialisez votre mot de passe.',
  },
};

export interface PasswordChangedCopy {
  subject: string;
  heading: string;
  body: (when: string) => string;
  notYou: string;
  action: string;
}

/** After a password change: the owner learns of it, with a way back in if it was not them. */
export const PASSWORD_CHANGED: Record<MailLanguage, PasswordChangedCopy> = {
  en: {
    subject: `Your ${SITE.name} password was changed`,
    heading: 'Your password was changed',
    body: (when) => `The password of your ${SITE.name} account was changed on ${when}. Every other device was signed out.`,
    notYou: 'If this was not you, choose a new password now: the reset link goes only to this address and signs everyone else out.',
    action: 'Reset my password',
  },
  es: {
    subject: `Tu contraseña de ${SITE.name} ha cambiado`,
    heading: 'Tu contraseña ha cambiado',
    body: (when) => `La contraseña de tu cuenta de ${SITE.name} se cambió el ${when}. Se cerró la sesión en los demás dispositivos.`,
    notYou: 'Si no fuiste tú, elige una nueva contraseña ahora: el enlace llega solo a esta dirección y cierra las demás sesiones.',
    action: 'Restablecer mi contraseña',
  },
  fr: {
    subject: `Votre mot de passe ${SITE.name} a été modifié`,
    heading: 'Votre mot de passe a été modifié',
    body: (when) => `Le mot de passe de votre compte ${SITE.name} a été modifié le ${when}. Les autres appareils ont été déconnectés.`,
    notYou:
      'Si ce n’était pas vous, choisissez un nouveau mot de passe maintenant : le lien n’est envoyé qu’à cette adresse et déconnecte tout le monde.',
    action: 'Réinitialiser mon mot de passe',
  },
};
