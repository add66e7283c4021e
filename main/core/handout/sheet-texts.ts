// The words of the patient's sheet, in the app's two languages. Written for the patient: what to
// open, what to type, and to keep the sheet.
export type SheetLanguage = 'es' | 'en';
export const SHEET_LANGUAGES: readonly SheetLanguage[] = ['es', 'en'];

export type SheetTexts = {
  title: string;
  patient: string;
  exam: string;
  type: string;
  date: string;
  publicPage: string;
  pin: string;
  qrCaption: string;
  viewer: string;
  password: string;
  /** Two lines a patient understands. */
  steps: [string, string];
  keep: string;
  examTypes: Record<string, string>;
  dateLocale: string;
};

export const SHEET_TEXTS: Record<SheetLanguage, SheetTexts> = {
  es: {
    title: 'Su examen en línea',
    patient: 'Paciente',
    exam: 'Examen',
    type: 'Tipo',
    date: 'Fecha',
    publicPage: 'Página de la clínica',
    pin: 'PIN de acceso',
    qrCaption: 'Escanee con la cámara de su teléfono',
    viewer: 'Enlace del visor',
    password: 'Contraseña',
    steps: [
      '1. Escanee el código QR (o escriba la dirección de la página de la clínica) e ingrese su PIN de acceso.',
      '2. Para ver las imágenes, abra el enlace del visor en un computador o teléfono e ingrese la contraseña.',
    ],
    keep: 'Guarde esta hoja: reemplaza al CD. Muéstrela a su dentista o médico.',
    examTypes: {
      cbct: 'Tomografía dental (CBCT)',
      radiografia: 'Radiografía',
      mesh: 'Modelo 3D',
      atm: 'Articulación temporomandibular (ATM)',
    },
    dateLocale: 'es-CL',
  },
  en: {
    title: 'Your exam online',
    patient: 'Patient',
    exam: 'Exam',
    type: 'Type',
    date: 'Date',
    publicPage: "Clinic's page",
    pin: 'Access PIN',
    qrCaption: "Scan with your phone's camera",
    viewer: 'Viewer link',
    password: 'Password',
    steps: [
      "1. Scan the QR code (or type the clinic's page address) and enter your access PIN.",
      '2. To see the images, open the viewer link on a computer or phone and enter the password.',
    ],
    keep: 'Keep this sheet: it replaces the CD. Show it to your dentist or doctor.',
    examTypes: {
      cbct: 'Dental CT scan (CBCT)',
      radiografia: 'X-ray',
      mesh: '3D model',
      atm: 'Jaw joint (TMJ)',
    },
    dateLocale: 'en-GB',
  },
};
