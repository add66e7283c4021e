// Builds the window's code into renderer/dist. `base: './'` keeps asset URLs relative, so the same
// build is served by the Electron app:// protocol and by the browser-mode bridge.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  // This folder, whatever the working directory (the renderer's lint rules keep node:* imports out).
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No inline scripts or data: modules: the CSP allows scripts from 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // The libraries every screen needs get chunks of their own, beside the app's code; pdf.js is not
    // among them: it is imported dynamically, where a PDF is shown, and so gets its own lazy chunk.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            {
              name: 'mantine',
              test: /[\\/]node_modules[\\/](@mantine[\\/](core|hooks)|@floating-ui[\\/][^\\/]+)[\\/]/,
            },
          ],
        },
      },
    },
  },
});
