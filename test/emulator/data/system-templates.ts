import type { TemplatePage, TemplateSlot } from '../core/state';

/** A system report-plate template as shipped by the service (visible to every account, read-only). */
export type SystemTemplate = { id: string; name: string; description: string; pages: TemplatePage[] };

const round = (n: number): number => Math.round(n * 10000) / 10000;

/**
 * A grid of slots inside the box (x, y, w, h) of a page, `gap` apart, labelled in reading order.
 * Coordinates are fractions of the page, so every slot stays within 0..1.
 */
function grid(
  box: { x: number; y: number; w: number; h: number },
  cols: number,
  rows: number,
  gap: number,
  label: (i: number) => string,
): TemplateSlot[] {
  const w = (box.w - gap * (cols - 1)) / cols;
  const h = (box.h - gap * (rows - 1)) / rows;
  const slots: TemplateSlot[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      slots.push({
        x: round(box.x + c * (w + gap)),
        y: round(box.y + r * (h + gap)),
        w: round(w),
        h: round(h),
        label: label(r * cols + c),
      });
    }
  }
  return slots;
}

const slot = (x: number, y: number, w: number, h: number, label: string): TemplateSlot => ({ x, y, w, h, label });

export const SYSTEM_TEMPLATES: SystemTemplate[] = [
  {
    id: 'tpl_sys_panoramica_cortes',
    name: 'Panorámica y cortes transversales',
    description:
      'Reconstrucción panorámica con la curva de corte y una serie de cortes transversales numerados, seguida de cortes axiales de referencia.',
    pages: [
      {
        name: 'Panorámica y transversales',
        slots: [
          slot(0.03, 0.03, 0.94, 0.3, 'Reconstrucción panorámica'),
          ...grid({ x: 0.03, y: 0.36, w: 0.94, h: 0.61 }, 5, 2, 0.015, (i) => `Corte transversal ${i + 1}`),
        ],
      },
      {
        name: 'Cortes axiales',
        slots: grid({ x: 0.03, y: 0.03, w: 0.94, h: 0.94 }, 3, 2, 0.02, (i) => `Axial ${i + 1}`),
      },
    ],
  },
  {
    id: 'tpl_sys_planificacion_implante',
    name: 'Planificación de implante',
    description:
      'Zona edéntula con implante virtual: axial, panorámica, tres cortes transversales por el eje del implante y reconstrucción 3D.',
    pages: [
      {
        name: 'Sitio del implante',
        slots: [
          slot(0.03, 0.03, 0.46, 0.3, 'Axial con implante virtual'),
          slot(0.51, 0.03, 0.46, 0.3, 'Panorámica'),
          ...grid(
            { x: 0.03, y: 0.35, w: 0.94, h: 0.34 },
            3,
            1,
            0.02,
            (i) => ['Transversal mesial', 'Transversal central', 'Transversal distal'][i] ?? '',
          ),
          slot(0.03, 0.71, 0.46, 0.26, 'Reconstrucción 3D'),
          slot(0.51, 0.71, 0.46, 0.26, 'Mediciones (altura y ancho óseo)'),
        ],
      },
    ],
  },
  {
    id: 'tpl_sys_atm_bilateral',
    name: 'ATM bilateral',
    description:
      'Articulaciones temporomandibulares derecha e izquierda en boca cerrada y boca abierta, cortes sagitales y coronales.',
    pages: [
      {
        name: 'Boca cerrada',
        slots: [
          ...grid({ x: 0.03, y: 0.03, w: 0.46, h: 0.94 }, 1, 2, 0.02, (i) =>
            i === 0 ? 'ATM derecha sagital' : 'ATM derecha coronal',
          ),
          ...grid({ x: 0.51, y: 0.03, w: 0.46, h: 0.94 }, 1, 2, 0.02, (i) =>
            i === 0 ? 'ATM izquierda sagital' : 'ATM izquierda coronal',
          ),
        ],
      },
      {
        name: 'Boca abierta',
        slots: [
          ...grid({ x: 0.03, y: 0.03, w: 0.46, h: 0.94 }, 1, 2, 0.02, (i) =>
            i === 0 ? 'ATM derecha sagital' : 'ATM derecha coronal',
          ),
          ...grid({ x: 0.51, y: 0.03, w: 0.46, h: 0.94 }, 1, 2, 0.02, (i) =>
            i === 0 ? 'ATM izquierda sagital' : 'ATM izquierda coronal',
          ),
        ],
      },
    ],
  },
  {
    id: 'tpl_sys_terceros_molares',
    name: 'Evaluación de terceros molares',
    description:
      'Relación de los terceros molares con el conducto dentario inferior y el seno maxilar: panorámica y cortes transversales por cuadrante.',
    pages: [
      {
        name: 'Mandíbula',
        slots: [
          slot(0.03, 0.03, 0.94, 0.28, 'Panorámica'),
          ...grid({ x: 0.03, y: 0.34, w: 0.46, h: 0.63 }, 2, 2, 0.015, (i) => `Pieza 3.8 transversal ${i + 1}`),
          ...grid({ x: 0.51, y: 0.34, w: 0.46, h: 0.63 }, 2, 2, 0.015, (i) => `Pieza 4.8 transversal ${i + 1}`),
        ],
      },
      {
        name: 'Maxilar',
        slots: [
          ...grid({ x: 0.03, y: 0.03, w: 0.46, h: 0.94 }, 2, 2, 0.015, (i) => `Pieza 1.8 transversal ${i + 1}`),
          ...grid({ x: 0.51, y: 0.03, w: 0.46, h: 0.94 }, 2, 2, 0.015, (i) => `Pieza 2.8 transversal ${i + 1}`),
        ],
      },
    ],
  },
];
