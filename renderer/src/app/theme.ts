import { Anchor, createTheme } from '@mantine/core';
import type { CSSVariablesResolver } from '@mantine/core';

// System fonts only: the window loads nothing remote, and clinic PCs have these.
const systemFonts =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif';

export const theme = createTheme({
  fontFamily: systemFonts,
  headings: { fontFamily: systemFonts },
  primaryColor: 'blue',
  // Darker shades keep text on light fills above the WCAG AA contrast ratio.
  primaryShade: 8,
  focusRing: 'auto',
  defaultRadius: 'sm',
  components: {
    // Links inside text must not rely on colour alone.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
  },
});

/** Light-scheme colours darkened where Mantine's defaults fall under the WCAG AA contrast ratio. */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-placeholder': '#6c737a',
    // Field errors (the text under an input and the input's own text) must stay readable.
    '--mantine-color-error': '#b02525',
    // Text of light and subtle variants (alerts, badges, nav links) on their tinted backgrounds.
    '--mantine-primary-color-light-color': '#1864ab',
    '--mantine-color-blue-light-color': '#1864ab',
    '--mantine-color-red-light-color': '#b02525',
    '--mantine-color-orange-light-color': '#9c3d06',
    '--mantine-color-yellow-light-color': '#6e4b00',
    '--mantine-color-teal-light-color': '#066649',
    '--mantine-color-gray-light-color': '#3d4349',
  },
  dark: {},
});
