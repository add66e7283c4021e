// DICOM Person Name (PN) values: `Family^Given^Middle^Prefix^Suffix`, with up to three
// `=`-separated groups (alphabetic, ideographic, phonetic), split after character-set decoding
// so that bytes of multi-byte sets are never mistaken for delimiters.

export type PersonNameComponents = {
  family: string;
  given: string;
  middle: string;
  prefix: string;
  suffix: string;
};

const clean = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Trims the space and NUL padding DICOM puts around string values. */
export function trimPadding(value: string): string {
  return value.replace(/^[\s\0]+|[\s\0]+$/g, '');
}

/** Splits a decoded PN value into its component groups (alphabetic, ideographic, phonetic). */
export function parsePersonName(raw: string): PersonNameComponents[] {
  // A multi-valued PN (backslash) names several people; the first one is the patient.
  const first = trimPadding(raw).split('\\')[0] ?? '';
  return first
    .split('=')
    .slice(0, 3)
    .map((group) => {
      const [family = '', given = '', middle = '', prefix = '', suffix = ''] = group.split('^').map(clean);
      return { family, given, middle, prefix, suffix };
    });
}

/**
 * The prefill form of CONTRACTS.md §2: given, middle, family joined by single spaces, empty parts
 * dropped, case kept; from the alphabetic group, or the next non-empty group when it is empty.
 */
export function prefillName(raw: string): string {
  for (const group of parsePersonName(raw)) {
    const name = [group.given, group.middle, group.family].filter((p) => p !== '').join(' ');
    if (name !== '') return name;
  }
  return '';
}
