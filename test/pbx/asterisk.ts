// A real Asterisk for `npm run test:pbx`: an installed build (ASTERISK_DIR) started in the
// foreground on loopback, its whole configuration in a temporary directory and wired as docs/deployment.md
// tells a deployment: the service's generated files included (the trunks the suite makes through the
// API among them: nothing is written by hand), an AMI user with the permissions docs/deployment.md gives.
import { spawn, type ChildProcess } from 'node:child_process'
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { eventually } from '../helpers/http-target.js'

const run = promisify(execFile)

/** what test:pbx needs of the machine, or what is missing */
export function pbxTools (env = process.env): { asteriskDir: string, pjsua: string } | { missing: string } {
  const asteriskDir = env.ASTERISK_DIR
  const pjsua = env.PJSUA
  const missing: string[] = []
  if (!asteriskDir) missing.push('ASTERISK_DIR (the prefix of an installed Asterisk 22.10.1: sbin/asterisk, lib/asterisk/modules)')
  else if (!existsSync(join(asteriskDir, 'sbin/asterisk'))) missing.push(`${asteriskDir}/sbin/asterisk`)
  if (!pjsua) missing.push('PJSUA (the pjsua program of PJProject 2.17)')
  else if (!existsSync(pjsua)) missing.push(pjsua)
  return missing.length > 0 ? { missing: missing.join('; ') } : { asteriskDir: asteriskDir!, pjsua: pjsua! }
}

/** the trunk's address: the public network's calls come from it (another loopback address) */
export const TRUNK_ADDRESS = '127.0.0.2'
/** where the public network takes the calls the trunk sends it: the test's "citizen" answering there */
export const TRUNK_PORT = 5399
/** the generated transports bind 0.0.0.0:5060 */
export const SIP_PORT = 5060

/** the modules the line needs, loaded explicitly so that nothing else binds a port or reads a file */
const MODULES = [
  'res_pjproject', 'res_sorcery_config', 'res_sorcery_memory', 'res_sorcery_astdb', 'res_timing_timerfd', 'res_rtp_asterisk', 'res_musiconhold',
  'res_pjsip', 'res_pjsip_session', 'chan_pjsip', 'res_pjsip_authenticator_digest', 'res_pjsip_outbound_authenticator_digest',
  'res_pjsip_endpoint_identifier_ip', 'res_pjsip_endpoint_identifier_user', 'res_pjsip_registrar', 'res_pjsip_outbound_registration', 'res_pjsip_sdp_rtp', 'res_pjsip_caller_id',
  'res_pjsip_nat', 'res_pjsip_rfc3326', 'res_pjsip_pubsub', 'res_pjsip_outbound_publish', 'res_pjsip_exten_state', 'res_pjsip_dtmf_info', 'res_pjsip_diversion',
  'app_queue', 'app_dial', 'app_playback', 'app_read', 'app_echo', 'app_record', 'app_playtones', 'app_userevent', 'app_stack', 'app_exec', 'app_mixmonitor', 'app_chanspy', 'app_originate',
  'pbx_config', 'func_channel', 'func_dialplan', 'func_strings', 'func_callerid', 'func_logic', 'func_cut', 'func_global', 'func_db',
  'codec_ulaw', 'codec_alaw', 'codec_resample', 'format_wav', 'format_pcm', 'format_sln',
  'bridge_simple', 'bridge_native_rtp', 'bridge_softmix', 'bridge_holding', 'bridge_builtin_features',
  // the three-way call from the console: the attended transfer's threeway code, as if pressed
  'app_senddtmf',
  // a desk phone's own transfer key (SIP REFER)
  'res_pjsip_refer',
  // `file convert`: a file read as Asterisk reads a prompt
  'res_convert',
  // the browser phones: SIP over WebSocket through Asterisk's HTTP server, DTLS-SRTP media
  'res_http_websocket', 'res_pjsip_transport_websocket', 'res_srtp',
]

export interface AsteriskOptions {
  asteriskDir: string
  /** where the service writes pjsip.conf, queues.conf, extensions.conf (PBX_CONFIG_DIR) */
  generatedDir: string
  /** Asterisk's own files, its run and log directories */
  dir: string
  amiPort: number
  /** Asterisk's HTTP server on loopback: the browser phones' WebSocket is its /ws */
  httpPort: number
  ami: { username: string, secret: string }
  /** AMI users besides the service's, with every class (a recorder's) */
  extraAmiUsers?: { username: string, secret: string }[]
}

export interface Asterisk {
  /** Asterisk's sounds directory (the service's PBX_SOUNDS_DIR) */
  soundsDir: string
  /** Asterisk's log (notices, warnings, errors) so far */
  log: () => string
  /** a CLI command through the control socket: its output */
  cli: (command: string) => Promise<string>
  /** stops it and starts it again with the same files (a restart: its queue members' pauses are gone) */
  restart: () => Promise<void>
  stop: () => Promise<void>
}

function writeConfiguration (o: AsteriskOptions): { conf: string, soundsDir: string } {
  const etc = join(o.dir, 'etc')
  const varDir = join(o.dir, 'var')
  for (const d of [etc, varDir, join(o.dir, 'spool'), join(o.dir, 'run'), join(o.dir, 'log'), join(varDir, 'sounds')]) mkdirSync(d, { recursive: true })
  const files: Record<string, string> = {
    'asterisk.conf': `[directories]
astetcdir => ${etc}
astmoddir => ${join(o.asteriskDir, 'lib/asterisk/modules')}
astvarlibdir => ${varDir}
astdbdir => ${varDir}
astkeydir => ${varDir}
astdatadir => ${varDir}
astagidir => ${join(varDir, 'agi-bin')}
astspooldir => ${join(o.dir, 'spool')}
astrundir => ${join(o.dir, 'run')}
astlogdir => ${join(o.dir, 'log')}
astsbindir => ${join(o.asteriskDir, 'sbin')}

[options]
defaultlanguage = ru
`,
    'modules.conf': `[modules]\nautoload = no\n${MODULES.map((m) => `load = ${m}.so`).join('\n')}\n`,
    'logger.conf': '[general]\ndateformat = %F %T.%3q\n[logfiles]\nmessages.log => notice,warning,error,verbose(3)\n',
    'manager.conf': `[general]
enabled = yes
port = ${o.amiPort}
bindaddr = 127.0.0.1

[${o.ami.username}]
secret = ${o.ami.secret}
deny = 0.0.0.0/0.0.0.0
permit = 127.0.0.1/255.255.255.255
; the permissions of docs/deployment.md
read = system,call,agent,user,reporting
write = system,command,agent,reporting,originate,call
${(o.extraAmiUsers ?? []).map((u) => `\n[${u.username}]\nsecret = ${u.secret}\npermit = 127.0.0.1/255.255.255.255\nread = all\nwrite = all\n`).join('')}`,
    'http.conf': `[general]\nenabled = yes\nbindaddr = 127.0.0.1\nbindport = ${o.httpPort}\n`,
    'pjsip.conf': `#include ${join(o.generatedDir, 'pjsip.conf')}
`,
    'extensions.conf': `#include ${join(o.generatedDir, 'extensions.conf')}\n`,
    'queues.conf': `#include ${join(o.generatedDir, 'queues.conf')}\n`,
    'musiconhold.conf': '[general]\n',
    'indications.conf': '[general]\ncountry = kz\n\n[kz]\ndescription = Kazakhstan\nringcadence = 1000,4000\ndial = 425\nbusy = 425/350,0/350\nring = 425/1000,0/4000\ncongestion = 425/175,0/175\n',
    'cdr.conf': '[general]\nenable = no\n',
    'cel.conf': '[general]\nenable = no\n',
    // the attended transfer's code (Atxfer simulates it), as docs/deployment.md asks; no "transfer" prompt (this Asterisk has no core sounds)
    'features.conf': '[general]\ntransferannouncesound =\n\n[featuremap]\natxfer = *2\n',
    'ccss.conf': '[general]\n',
    'acl.conf': '',
    'udptl.conf': '[general]\n',
    'pjproject.conf': '',
    'rtp.conf': '[general]\nrtpstart = 20000\nrtpend = 20999\n',
  }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(etc, name), text)
  // its XML documentation, without which it refuses to start, from the build; its sounds our own
  if (!existsSync(join(varDir, 'documentation'))) symlinkSync(join(o.asteriskDir, 'var/lib/asterisk/documentation'), join(varDir, 'documentation'))
  return { conf: join(etc, 'asterisk.conf'), soundsDir: join(varDir, 'sounds') }
}

/** starts Asterisk; resolves once its AMI answers and it says it has fully booted */
export async function startAsterisk (o: AsteriskOptions): Promise<Asterisk> {
  const { conf, soundsDir } = writeConfiguration(o)
  const logFile = join(o.dir, 'log', 'messages.log')
  const binary = join(o.asteriskDir, 'sbin/asterisk')
  let child: ChildProcess | undefined
  const cli = async (command: string) => (await run(binary, ['-C', conf, '-rx', command], { timeout: 15_000 })).stdout
  const start = async () => {
    const process = spawn(binary, ['-C', conf, '-f', '-n', '-q'], { stdio: ['ignore', 'ignore', 'pipe'] })
    child = process
    let exited = false
    process.on('exit', () => { exited = true })
    await eventually(async () => {
      if (exited) throw new Error(`Asterisk exited while starting: ${readLog()}`)
      return (await cli('core waitfullybooted').catch(() => '')).includes('fully booted')
    }, 60_000, 'Asterisk fully booted')
  }
  const readLog = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '')
  const stop = async () => {
    const process = child
    if (!process || process.exitCode !== null) return
    const exited = new Promise((resolve) => process.once('exit', resolve))
    process.kill('SIGTERM')
    const timer = setTimeout(() => process.kill('SIGKILL'), 10_000)
    await exited
    clearTimeout(timer)
  }
  await start()
  return { soundsDir, log: readLog, cli, stop, restart: async () => { await stop(); await start() } }
}
