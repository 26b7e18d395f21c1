// The SIP transports of the generated pjsip.conf, where a deployment says they listen (DESIGN 11).

/** where the transports listen, and what a centre behind a router says to the world outside it */
export interface PbxNetwork {
  /** UDP and TCP (`address:port`) */
  sipBind: string
  /** SIP over TLS, with the certificate's and key's paths as Asterisk reads them; none: no TLS transport */
  tls?: { bind: string, cert: string, key: string }
  /** the browser phones' WebSocket, plain or TLS (the one of PBX_WEBSOCKET_URL): served by Asterisk's HTTP server, whatever a bind says */
  websocket: 'ws' | 'wss'
  /** the router's public address, given in SIP and SDP to everything outside the local networks */
  external?: { address: string, localNets: string[] }
}

export const DEFAULT_NETWORK: PbxNetwork = { sipBind: '0.0.0.0:5060', websocket: 'ws' }

/** the NAT options of a transport phones and trunks reach from outside */
const natLines = (network: PbxNetwork) => network.external
  ? [`external_media_address=${network.external.address}`, `external_signaling_address=${network.external.address}`, ...network.external.localNets.map((net) => `local_net=${net}`)]
  : []

/** each transport's section lines, by the name terminals and trunks give in their `transport` */
export function transportSections (network: PbxNetwork = DEFAULT_NETWORK): Record<string, string[]> {
  const nat = natLines(network)
  return {
    'transport-udp': ['type=transport', 'protocol=udp', `bind=${network.sipBind}`, ...nat],
    'transport-tcp': ['type=transport', 'protocol=tcp', `bind=${network.sipBind}`, ...nat],
    ...(network.tls ? { 'transport-tls': ['type=transport', 'protocol=tls', `bind=${network.tls.bind}`, `cert_file=${network.tls.cert}`, `priv_key_file=${network.tls.key}`, 'method=tlsv1_2', ...nat] } : {}),
    [`transport-${network.websocket}`]: ['type=transport', `protocol=${network.websocket}`, 'bind=0.0.0.0'],
  }
}
