/**
 * The global implant catalog (API-v1.md §2.11): real brands and product lines with the diameters and
 * lengths of their published size ranges. Each line is written as a matrix — per diameter the lengths
 * made — and expanded into one entry per size, so a line reads the way its catalog page does.
 */
export type ImplantEntry = {
  id: string;
  brand: string;
  product_line: string;
  /** Millimetres. */
  length: number;
  /** Millimetres (the implant body; platform names the prosthetic interface). */
  diameter: number;
  platform: string | null;
  connection: string | null;
};

type Size = { diameter: number; platform: string | null; lengths: number[] };
type Line = { brand: string; product_line: string; connection: string | null; sizes: Size[] };

const s = (diameter: number, platform: string | null, lengths: number[]): Size => ({ diameter, platform, lengths });

const LINES: Line[] = [
  // Straumann
  {
    brand: 'Straumann',
    product_line: 'Bone Level Tapered (BLT)',
    connection: 'CrossFit (internal conical)',
    sizes: [
      s(2.9, 'SC', [10, 12, 14]),
      s(3.3, 'NC', [8, 10, 12, 14, 16, 18]),
      s(4.1, 'RC', [8, 10, 12, 14, 16, 18]),
      s(4.8, 'RC', [8, 10, 12, 14, 16, 18]),
    ],
  },
  {
    brand: 'Straumann',
    product_line: 'BLX',
    connection: 'TorcFit (internal conical)',
    sizes: [
      s(3.5, 'RB', [8, 10, 12, 14, 16, 18]),
      s(3.75, 'RB', [8, 10, 12, 14, 16, 18]),
      s(4.0, 'RB', [8, 10, 12, 14, 16, 18]),
      s(4.5, 'RB', [6, 8, 10, 12, 14, 16, 18]),
      s(5.0, 'RB', [6, 8, 10, 12, 14, 16, 18]),
      s(5.5, 'RB', [6, 8, 10, 12, 14]),
      s(6.5, 'WB', [6, 8, 10, 12]),
    ],
  },
  {
    brand: 'Straumann',
    product_line: 'Standard Plus (Tissue Level)',
    connection: 'synOcta (internal octagon, 8° Morse taper)',
    sizes: [
      s(3.3, 'NN', [8, 10, 12, 14]),
      s(3.3, 'RN', [8, 10, 12, 14]),
      s(4.1, 'RN', [6, 8, 10, 12, 14]),
      s(4.8, 'RN', [6, 8, 10, 12, 14]),
      s(4.8, 'WN', [6, 8, 10, 12]),
    ],
  },
  {
    brand: 'Straumann',
    product_line: 'Bone Level (BL)',
    connection: 'CrossFit (internal conical)',
    sizes: [s(3.3, 'NC', [8, 10, 12, 14]), s(4.1, 'RC', [8, 10, 12, 14]), s(4.8, 'RC', [8, 10, 12, 14])],
  },
  // Nobel Biocare
  {
    brand: 'Nobel Biocare',
    product_line: 'NobelActive',
    connection: 'Internal conical connection',
    sizes: [
      s(3.0, '3.0', [10, 11.5, 13, 15]),
      s(3.5, 'NP', [8.5, 10, 11.5, 13, 15, 18]),
      s(4.3, 'RP', [8.5, 10, 11.5, 13, 15, 18]),
      s(5.0, 'RP', [8.5, 10, 11.5, 13, 15, 18]),
      s(5.5, 'WP', [7, 8.5, 10, 11.5, 13, 15]),
    ],
  },
  {
    brand: 'Nobel Biocare',
    product_line: 'NobelParallel Conical Connection',
    connection: 'Internal conical connection',
    sizes: [
      s(3.75, 'NP', [8.5, 10, 11.5, 13, 15, 18]),
      s(4.3, 'RP', [7, 8.5, 10, 11.5, 13, 15, 18]),
      s(5.0, 'RP', [7, 8.5, 10, 11.5, 13, 15, 18]),
      s(5.5, 'WP', [7, 8.5, 10, 11.5, 13, 15]),
    ],
  },
  {
    brand: 'Nobel Biocare',
    product_line: 'NobelReplace Conical Connection',
    connection: 'Internal conical connection',
    sizes: [
      s(3.5, 'NP', [8, 10, 11.5, 13, 16]),
      s(4.3, 'RP', [8, 10, 11.5, 13, 16]),
      s(5.0, 'RP', [8, 10, 11.5, 13, 16]),
      s(6.0, 'WP', [8, 10, 11.5, 13]),
    ],
  },
  {
    brand: 'Nobel Biocare',
    product_line: 'Brånemark System Mk III TiUnite',
    connection: 'External hexagon',
    sizes: [
      s(3.3, 'NP', [8.5, 10, 11.5, 13, 15]),
      s(3.75, 'RP', [7, 8.5, 10, 11.5, 13, 15, 18]),
      s(4.0, 'RP', [7, 8.5, 10, 11.5, 13, 15, 18]),
      s(5.0, 'WP', [7, 8.5, 10, 11.5, 13]),
    ],
  },
  // Zimmer Biomet
  {
    brand: 'Zimmer Biomet',
    product_line: 'Tapered Screw-Vent (TSV)',
    connection: 'Internal hex (Friction-Fit)',
    sizes: [
      s(3.7, '3.5', [8, 10, 11.5, 13, 16]),
      s(4.1, '3.5', [8, 10, 11.5, 13, 16]),
      s(4.7, '4.5', [8, 10, 11.5, 13, 16]),
      s(6.0, '5.7', [8, 10, 11.5, 13]),
    ],
  },
  {
    brand: 'Zimmer Biomet',
    product_line: 'T3 Tapered (Certain)',
    connection: 'Internal hex (Certain)',
    sizes: [
      s(3.25, '3.4', [8.5, 10, 11.5, 13, 15]),
      s(4.0, '4.1', [8.5, 10, 11.5, 13, 15]),
      s(5.0, '5.0', [8.5, 10, 11.5, 13, 15]),
      s(6.0, '6.0', [8.5, 10, 11.5, 13]),
    ],
  },
  {
    brand: 'Zimmer Biomet',
    product_line: 'TSX',
    connection: 'Internal hex (Friction-Fit)',
    sizes: [
      s(3.7, '3.5', [8, 10, 11.5, 13, 16]),
      s(4.1, '3.5', [8, 10, 11.5, 13, 16]),
      s(4.7, '4.5', [8, 10, 11.5, 13, 16]),
      s(5.4, '4.5', [8, 10, 11.5, 13]),
    ],
  },
  // Dentsply Sirona
  {
    brand: 'Dentsply Sirona',
    product_line: 'Astra Tech Implant System EV',
    connection: 'Conical Seal Design (internal conical, indexed)',
    sizes: [
      s(3.0, '3.0', [8, 9, 11, 13, 15, 17]),
      s(3.6, '3.6', [6, 8, 9, 11, 13, 15, 17]),
      s(4.2, '4.2', [6, 8, 9, 11, 13, 15, 17]),
      s(4.8, '4.8', [6, 8, 9, 11, 13, 15, 17]),
      s(5.4, '5.4', [6, 8, 9, 11, 13, 15]),
    ],
  },
  {
    brand: 'Dentsply Sirona',
    product_line: 'Ankylos C/X',
    connection: 'TissueCare (internal conical)',
    sizes: [
      s(3.5, 'A', [8, 9.5, 11, 14, 17]),
      s(4.5, 'B', [6.6, 8, 9.5, 11, 14, 17]),
      s(5.5, 'C', [6.6, 8, 9.5, 11, 14]),
      s(7.0, 'D', [8, 9.5, 11, 14]),
    ],
  },
  // BioHorizons
  {
    brand: 'BioHorizons',
    product_line: 'Tapered Internal',
    connection: 'Internal hex (conical)',
    sizes: [
      s(3.0, '3.0', [10.5, 12, 15, 18]),
      s(3.4, '3.5', [7.5, 9, 10.5, 12, 15, 18]),
      s(3.8, '3.5', [7.5, 9, 10.5, 12, 15, 18]),
      s(4.6, '4.5', [7.5, 9, 10.5, 12, 15, 18]),
      s(5.8, '5.7', [7.5, 9, 10.5, 12, 15]),
    ],
  },
  {
    brand: 'BioHorizons',
    product_line: 'Tapered Pro',
    connection: 'Internal hex (conical)',
    sizes: [
      s(3.8, '3.5', [7.5, 9, 10.5, 12, 15]),
      s(4.2, '4.5', [7.5, 9, 10.5, 12, 15]),
      s(4.6, '4.5', [7.5, 9, 10.5, 12, 15]),
      s(5.2, '5.7', [7.5, 9, 10.5, 12, 15]),
    ],
  },
  // MIS
  {
    brand: 'MIS',
    product_line: 'C1',
    connection: 'Internal conical (6° cone, hexagonal index)',
    sizes: [
      s(3.3, 'NP', [10, 11.5, 13, 16]),
      s(3.75, 'SP', [8, 10, 11.5, 13, 16]),
      s(4.2, 'SP', [8, 10, 11.5, 13, 16]),
      s(5.0, 'WP', [8, 10, 11.5, 13]),
    ],
  },
  {
    brand: 'MIS',
    product_line: 'V3',
    connection: 'Internal conical (6° cone, hexagonal index)',
    sizes: [
      s(3.3, 'NP', [10, 11.5, 13, 16]),
      s(3.9, 'SP', [8, 10, 11.5, 13, 16]),
      s(4.3, 'SP', [8, 10, 11.5, 13, 16]),
      s(5.0, 'WP', [8, 10, 11.5, 13]),
    ],
  },
  {
    brand: 'MIS',
    product_line: 'SEVEN',
    connection: 'Internal hex',
    sizes: [
      s(3.3, 'NP', [10, 11.5, 13, 16]),
      s(3.75, 'SP', [8, 10, 11.5, 13, 16]),
      s(4.2, 'SP', [6, 8, 10, 11.5, 13, 16]),
      s(5.0, 'WP', [6, 8, 10, 11.5, 13]),
      s(6.0, 'WP', [6, 8, 10, 11.5, 13]),
    ],
  },
  // Neodent
  {
    brand: 'Neodent',
    product_line: 'Grand Morse Helix',
    connection: 'Grand Morse (16° Morse taper, internal index)',
    sizes: [
      s(3.5, 'GM', [8, 10, 11.5, 13, 16, 18]),
      s(3.75, 'GM', [8, 10, 11.5, 13, 16, 18]),
      s(4.0, 'GM', [8, 10, 11.5, 13, 16, 18]),
      s(4.3, 'GM', [8, 10, 11.5, 13, 16, 18]),
      s(5.0, 'GM', [8, 10, 11.5, 13, 16, 18]),
      s(6.0, 'GM', [8, 10, 11.5, 13]),
      s(7.0, 'GM', [8, 10, 11.5, 13]),
    ],
  },
  {
    brand: 'Neodent',
    product_line: 'Grand Morse Drive',
    connection: 'Grand Morse (16° Morse taper, internal index)',
    sizes: [
      s(3.5, 'GM', [8, 10, 11.5, 13, 16]),
      s(4.3, 'GM', [8, 10, 11.5, 13, 16]),
      s(5.0, 'GM', [8, 10, 11.5, 13, 16]),
    ],
  },
  {
    brand: 'Neodent',
    product_line: 'Titamax GM',
    connection: 'Grand Morse (16° Morse taper, internal index)',
    sizes: [
      s(3.5, 'GM', [7, 8, 9, 11, 13, 15, 17]),
      s(3.75, 'GM', [7, 8, 9, 11, 13, 15, 17]),
      s(4.0, 'GM', [7, 8, 9, 11, 13, 15, 17]),
      s(5.0, 'GM', [7, 8, 9, 11, 13, 15]),
    ],
  },
  // Osstem
  {
    brand: 'Osstem',
    product_line: 'TSIII SA',
    connection: 'Internal hex (11° Morse taper)',
    sizes: [
      s(3.5, 'Mini', [8.5, 10, 11.5, 13, 15]),
      s(4.0, 'Regular', [7, 8.5, 10, 11.5, 13, 15]),
      s(4.5, 'Regular', [7, 8.5, 10, 11.5, 13, 15]),
      s(5.0, 'Regular', [6, 7, 8.5, 10, 11.5, 13, 15]),
      s(6.0, 'Regular', [6, 7, 8.5, 10, 11.5, 13]),
      s(7.0, 'Regular', [6, 7, 8.5, 10, 11.5, 13]),
    ],
  },
  {
    brand: 'Osstem',
    product_line: 'SSIII SA',
    connection: 'Internal octagon (8° Morse taper, tissue level)',
    sizes: [
      s(4.1, 'Regular', [7, 8.5, 10, 11.5, 13, 15]),
      s(4.5, 'Regular', [7, 8.5, 10, 11.5, 13, 15]),
      s(5.0, 'Wide', [6, 7, 8.5, 10, 11.5, 13]),
    ],
  },
  // MegaGen
  {
    brand: 'MegaGen',
    product_line: 'AnyRidge',
    connection: 'Internal octa (KnifeThread, single platform)',
    sizes: [
      s(3.5, 'Octa', [7, 8.5, 10, 11.5, 13, 15]),
      s(4.0, 'Octa', [7, 8.5, 10, 11.5, 13, 15]),
      s(4.4, 'Octa', [7, 8.5, 10, 11.5, 13, 15]),
      s(4.9, 'Octa', [7, 8.5, 10, 11.5, 13, 15]),
      s(5.4, 'Octa', [7, 8.5, 10, 11.5, 13, 15]),
      s(5.9, 'Octa', [7, 8.5, 10, 11.5, 13]),
      s(6.4, 'Octa', [7, 8.5, 10, 11.5, 13]),
    ],
  },
  {
    brand: 'MegaGen',
    product_line: 'AnyOne Internal',
    connection: 'Internal hex (Morse taper)',
    sizes: [
      s(3.5, 'Mini', [7, 8.5, 10, 11.5, 13, 15]),
      s(4.0, 'Regular', [7, 8.5, 10, 11.5, 13, 15]),
      s(4.5, 'Regular', [7, 8.5, 10, 11.5, 13, 15]),
      s(5.0, 'Regular', [7, 8.5, 10, 11.5, 13, 15]),
      s(5.5, 'Regular', [7, 8.5, 10, 11.5, 13]),
      s(6.0, 'Regular', [7, 8.5, 10, 11.5, 13]),
    ],
  },
  // Alpha-Bio Tec
  {
    brand: 'Alpha-Bio Tec',
    product_line: 'NeO',
    connection: 'Internal conical (hexagonal index)',
    sizes: [
      s(3.2, 'NP', [10, 11.5, 13, 16]),
      s(3.5, 'RP', [8, 10, 11.5, 13, 16]),
      s(3.75, 'RP', [8, 10, 11.5, 13, 16]),
      s(4.2, 'RP', [8, 10, 11.5, 13, 16]),
      s(5.0, 'RP', [8, 10, 11.5, 13]),
    ],
  },
  {
    brand: 'Alpha-Bio Tec',
    product_line: 'SPI',
    connection: 'Internal hex',
    sizes: [
      s(3.3, 'NP', [10, 11.5, 13, 16]),
      s(3.75, 'RP', [8, 10, 11.5, 13, 16]),
      s(4.2, 'RP', [8, 10, 11.5, 13, 16]),
      s(5.0, 'RP', [8, 10, 11.5, 13]),
    ],
  },
  // Bicon
  {
    brand: 'Bicon',
    product_line: 'SHORT Implant',
    connection: 'Locking taper (1.5° Morse taper)',
    sizes: [
      s(3.0, '2.0 well', [8, 11]),
      s(3.5, '2.5 well', [8, 11]),
      s(4.0, '3.0 well', [5, 6, 8, 11]),
      s(4.5, '3.0 well', [6, 8, 11]),
      s(5.0, '3.0 well', [5, 6, 8, 11]),
      s(6.0, '3.0 well', [5, 5.7, 8]),
    ],
  },
  // Dentium
  {
    brand: 'Dentium',
    product_line: 'SuperLine',
    connection: 'Internal hex (11° Morse taper)',
    sizes: [
      s(3.6, 'Regular', [8, 10, 12, 14]),
      s(4.0, 'Regular', [7, 8, 10, 12, 14]),
      s(4.5, 'Regular', [7, 8, 10, 12, 14]),
      s(5.0, 'Regular', [7, 8, 10, 12, 14]),
      s(5.5, 'Regular', [7, 8, 10, 12, 14]),
      s(6.0, 'Regular', [7, 8, 10, 12]),
      s(7.0, 'Regular', [7, 8, 10, 12]),
    ],
  },
  {
    brand: 'Dentium',
    product_line: 'NR Line',
    connection: 'Internal hex (11° Morse taper)',
    sizes: [s(3.6, 'Regular', [8, 10, 12, 14]), s(4.0, 'Regular', [8, 10, 12, 14]), s(4.5, 'Regular', [8, 10, 12, 14])],
  },
  // Camlog
  {
    brand: 'Camlog',
    product_line: 'Screw-Line Promote plus',
    connection: 'Tube-in-Tube (internal, cam index)',
    sizes: [
      s(3.3, '3.3', [9, 11, 13, 16]),
      s(3.8, '3.8', [7, 9, 11, 13, 16]),
      s(4.3, '4.3', [7, 9, 11, 13, 16]),
      s(5.0, '5.0', [7, 9, 11, 13, 16]),
      s(6.0, '6.0', [7, 9, 11, 13]),
    ],
  },
  {
    brand: 'Camlog',
    product_line: 'Conelog Screw-Line',
    connection: 'Conical (7.5°, cam index)',
    sizes: [
      s(3.3, '3.3', [9, 11, 13, 16]),
      s(3.8, '3.8', [7, 9, 11, 13, 16]),
      s(4.3, '4.3', [7, 9, 11, 13, 16]),
      s(5.0, '5.0', [7, 9, 11, 13, 16]),
    ],
  },
];

const slug = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** Every catalog entry, in brand / product line / diameter / length order; ids are stable across runs. */
export const IMPLANT_CATALOG: ImplantEntry[] = LINES.flatMap((line) =>
  line.sizes.flatMap((size) =>
    size.lengths.map((length) => ({
      id: `imp_${slug(line.brand)}_${slug(line.product_line)}_${slug(size.platform ?? 'x')}_${String(size.diameter).replace('.', '')}x${String(length).replace('.', '')}`,
      brand: line.brand,
      product_line: line.product_line,
      length,
      diameter: size.diameter,
      platform: size.platform,
      connection: line.connection,
    })),
  ),
).sort(
  (a, b) =>
    a.brand.localeCompare(b.brand) ||
    a.product_line.localeCompare(b.product_line) ||
    a.diameter - b.diameter ||
    a.length - b.length,
);
