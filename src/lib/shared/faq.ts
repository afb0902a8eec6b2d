/**
 * The FAQ's questions and answers (spec point 2): the /faq page's accordion and the site search's
 * index read them from here. Pure data.
 */
export const FAQS: readonly { question: string; answer: string }[] = [
  {
    question: 'What services do you offer?',
    answer:
      'We offer six services: AI automation, SEO optimization, content strategy, website management, social media growth and chatbot development. We also advise on web and mobile app projects and e-commerce launches. Most clients start with one service and add others once the first is delivering results.',
  },
  {
    question: 'How do you measure success?',
    answer:
      'Before any work starts we record a baseline and agree three to five KPIs tied to your revenue, such as qualified leads, cost per acquisition, conversion rate or staff hours saved. You get a plain-English report every month showing what moved against that baseline and what we will do next.',
  },
  {
    question: 'What industries do you work with?',
    answer:
      'Mostly small and mid-sized businesses in professional services, healthcare, home services, hospitality, retail and e-commerce, and B2B software. Our methods travel well between industries; we will tell you upfront if we lack the experience your market needs.',
  },
  {
    question: 'How long does it take to see results?',
    answer:
      'It depends on the service. Automations and chatbots usually save time within the first month after launch. Paid social and website speed work show results within weeks. SEO and content build momentum: most clients see meaningful movement within 3-6 months.',
  },
  {
    question: 'Do you provide ongoing support?',
    answer:
      'Yes. Every project ends with documentation and training, and most clients keep us on a monthly plan for maintenance, monitoring, reporting and continuous improvement. You can also call on us ad hoc; there is no long-term lock-in.',
  },
  {
    question: 'How do you stay current with digital marketing trends?',
    answer:
      'Each consultant spends time every week testing new tools and search and platform updates on our own site and sandboxes before recommending them to clients. We share what we learn in our blog, newsletter and courses, and we only adopt a new tactic once it has proven itself.',
  },
  {
    question: 'What does your onboarding process look like?',
    answer:
      'It starts with a free 30-minute consultation. If we are a good fit, we send a written proposal within three business days. Once signed, a kickoff workshop covers goals, access and baselines, and you get a 90-day plan with named owners in the first two weeks.',
  },
  {
    question: 'Do you offer custom packages?',
    answer:
      'Yes. Many clients combine services, for example SEO with content strategy, or a chatbot with AI automation. We scope each package around your goals and budget, and we are happy to start small with a pilot before you commit to more.',
  },
];

/** The FAQ page's anchor for a question: its accordion item's id (FaqList names items `{name}-q{n}`; the page's name is `faq`). */
export const faqAnchor = (index: number): string => `faq-q${index + 1}`;
