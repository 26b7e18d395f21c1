import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// Served by the service under /console/ (same origin as the API: no CORS). `npm run dev` proxies the API.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rollupOptions: {
      output: {
        // the framework and Ant Design change less often than the pages: cached apart
        manualChunks: (id) => id.includes('node_modules') ? (/antd|@ant-design|rc-|@rc-component/.test(id) ? 'antd' : 'vendor') : undefined,
      },
    },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:8000' } },
})
