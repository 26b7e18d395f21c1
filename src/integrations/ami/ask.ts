import { PBX_NOT_CONFIGURED, pbxUnreachable, ServiceUnavailableError } from '../../lib/errors.js'
import { AmiError } from './client.js'

export const AMI_NOT_CONFIGURED = 'Asterisk Manager Interface is not configured (set AMI_HOST, AMI_USERNAME and AMI_SECRET)'

/**
 * Asterisk's answer to a request over AMI, or a 503 that says why there is none: no AMI configured
 * (`pbx_not_configured`), or Asterisk not answering or refusing (`pbx_unreachable`, its error kept
 * as the cause). Any other error is the service's own and goes on as it is (a 500, its stack logged).
 */
export async function askAsterisk<C, T> (control: C | undefined, ask: (control: C) => Promise<T>, { failed, unconfigured = AMI_NOT_CONFIGURED }: { failed?: string, unconfigured?: string } = {}): Promise<T> {
  if (!control) throw new ServiceUnavailableError(unconfigured, PBX_NOT_CONFIGURED)
  try {
    return await ask(control)
  } catch (err) {
    if (!(err instanceof AmiError)) throw err
    throw new ServiceUnavailableError(`${failed ?? 'Asterisk did not answer'}: ${err.message}`, pbxUnreachable(err))
  }
}
