/** The wording of the informed-consent document and its e-mail, per locale (es, en, pt). */
export type ConsentLocale = 'es' | 'en' | 'pt';

export type ConsentWording = {
  title: string;
  paragraphs: string[];
  labels: {
    clinic: string;
    exam: string;
    examType: string;
    patient: string;
    birthDate: string;
    signer: string;
    rut: string;
    document: string;
    signedAt: string;
    method: string;
    signature: string;
    unsigned: string;
  };
  methods: { in_person: string; email: string };
  typedSignatureNote: string;
  mailSubject: (clinic: string) => string;
  mailBody: (clinic: string, exam: string, url: string) => string;
};

const es: ConsentWording = {
  title: 'Consentimiento informado para examen imagenológico',
  paragraphs: [
    'Declaro haber sido informado/a de forma clara sobre el examen imagenológico indicado, su propósito, sus beneficios, sus riesgos —incluida la exposición a radiación ionizante— y sus alternativas, y haber podido hacer preguntas que fueron respondidas.',
    'Autorizo la realización del examen y el almacenamiento de las imágenes y sus informes, así como su entrega a los profesionales tratantes que yo o la clínica designemos.',
    'Entiendo que puedo revocar este consentimiento en cualquier momento antes de la realización del examen.',
  ],
  labels: {
    clinic: 'Clínica',
    exam: 'Examen',
    examType: 'Tipo de examen',
    patient: 'Paciente',
    birthDate: 'Fecha de nacimiento',
    signer: 'Firmante',
    rut: 'RUT',
    document: 'Documento',
    signedAt: 'Fecha de firma',
    method: 'Método de firma',
    signature: 'Firma',
    unsigned: 'Documento sin firmar',
  },
  methods: { in_person: 'presencial', email: 'enlace por correo electrónico' },
  typedSignatureNote: 'Firmado electrónicamente mediante el enlace enviado por correo electrónico.',
  mailSubject: (clinic) => `Firma de consentimiento informado — ${clinic}`,
  mailBody: (clinic, exam, url) =>
    `Hola:\n\n${clinic} le solicita firmar el consentimiento informado para el examen "${exam}".\n\nPuede leerlo y firmarlo aquí: ${url}\n\nSaludos,\n${clinic}`,
};

const en: ConsentWording = {
  title: 'Informed consent for an imaging exam',
  paragraphs: [
    'I declare that I have been clearly informed about the indicated imaging exam, its purpose, benefits, risks —including exposure to ionizing radiation— and alternatives, and that I could ask questions that were answered.',
    'I authorize the exam and the storage of its images and reports, and their release to the treating professionals designated by me or by the clinic.',
    'I understand that I may withdraw this consent at any time before the exam is performed.',
  ],
  labels: {
    clinic: 'Clinic',
    exam: 'Exam',
    examType: 'Exam type',
    patient: 'Patient',
    birthDate: 'Date of birth',
    signer: 'Signer',
    rut: 'RUT',
    document: 'ID document',
    signedAt: 'Signed at',
    method: 'Signing method',
    signature: 'Signature',
    unsigned: 'Unsigned document',
  },
  methods: { in_person: 'in person', email: 'e-mailed link' },
  typedSignatureNote: 'Signed electronically through the link sent by e-mail.',
  mailSubject: (clinic) => `Informed consent signature — ${clinic}`,
  mailBody: (clinic, exam, url) =>
    `Hello,\n\n${clinic} asks you to sign the informed consent for the exam "${exam}".\n\nRead and sign it here: ${url}\n\nRegards,\n${clinic}`,
};

const pt: ConsentWording = {
  title: 'Consentimento informado para exame de imagem',
  paragraphs: [
    'Declaro ter sido informado/a de forma clara sobre o exame de imagem indicado, o seu propósito, benefícios, riscos —incluindo a exposição à radiação ionizante— e alternativas, e ter podido fazer perguntas que foram respondidas.',
    'Autorizo a realização do exame e o armazenamento das imagens e dos seus laudos, bem como a sua entrega aos profissionais responsáveis designados por mim ou pela clínica.',
    'Entendo que posso revogar este consentimento a qualquer momento antes da realização do exame.',
  ],
  labels: {
    clinic: 'Clínica',
    exam: 'Exame',
    examType: 'Tipo de exame',
    patient: 'Paciente',
    birthDate: 'Data de nascimento',
    signer: 'Signatário',
    rut: 'RUT',
    document: 'Documento',
    signedAt: 'Data da assinatura',
    method: 'Método de assinatura',
    signature: 'Assinatura',
    unsigned: 'Documento não assinado',
  },
  methods: { in_person: 'presencial', email: 'link enviado por e-mail' },
  typedSignatureNote: 'Assinado eletronicamente através do link enviado por e-mail.',
  mailSubject: (clinic) => `Assinatura de consentimento informado — ${clinic}`,
  mailBody: (clinic, exam, url) =>
    `Olá,\n\n${clinic} solicita a sua assinatura do consentimento informado para o exame "${exam}".\n\nLeia e assine aqui: ${url}\n\nAtenciosamente,\n${clinic}`,
};

export const CONSENT_LOCALES = ['es', 'en', 'pt'] as const;

export function wording(locale: string): ConsentWording {
  if (locale === 'en') return en;
  if (locale === 'pt') return pt;
  return es;
}
