import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { precompress } from './precompress'

// Served by the service under /console/ (same origin as the API: no CORS). `npm run dev` proxies the API.
export default defineConfig({
  base: '/console/',
  plugins: [react(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        // React and its kin change less often than the pages: cached apart. Ant Design is left to the
        // bundler, so that the sign-in page loads only the components it uses.
        manualChunks: (id) => /node_modules\/(react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next)\//.test(id) ? 'vendor' : undefined,
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8000' } },
})
