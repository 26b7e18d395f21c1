// The external register organizations are synchronised with.
export * from './client.js'
