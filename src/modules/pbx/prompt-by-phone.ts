// A prompt recorded by phone (issue 49): the administrator dials *77*<prompt>*<1 Russian | 2 Kazakh>
// from their own terminal, hears the prompt's number said back and a tone, speaks, ends with #,
// hears what they said, and keeps it (1), hears it again (2) or records it anew (3), as Asterisk's
// own `vm-review` sound offers (the console says the same beside the prompt). Kept, the dialplan tells the service (UserEvent), which converts the
// file as it converts an upload and puts it on the prompt in that language.

import { PROMPT_BY_PHONE, PROMPT_DRAFTS_DIR, PROMPT_RECORDED_EVENT, promptRecordersContext } from '../../integrations/asterisk/names.js'

/** a recording by phone lasts this long at most (the prompts' own limit) */
const MAX_SECONDS = 180

/** what the prompts' dialplan needs of an organization (generators.ts's PbxOrganization has it) */
interface PromptOrganization {
  prefix: string
  terminals: { id: string, records_prompts?: boolean }[]
}

/** the feature code in the organization's internal context, and the terminals allowed to use it */
export function promptByPhoneDialplan (org: PromptOrganization, recordingsDir: string): string[] {
  const recorders = promptRecordersContext(org.prefix)
  const draft = `${recordingsDir}/${PROMPT_DRAFTS_DIR}/org${org.prefix}-\${PROMPT}-\${PROMPT_LANG}-\${UNIQUEID}.wav16`
  return [
    `; a prompt recorded by phone: ${PROMPT_BY_PHONE}*<prompt>*<1 Russian, 2 Kazakh>, from the terminal of an administrator or of the organization's manager`,
    `exten => _${PROMPT_BY_PHONE}*X.,1,NoOp(prompt recorded by phone)`,
    ' same => n,Set(PROMPT=${FILTER(0-9,${CUT(EXTEN,*,3)})})',
    ' same => n,Set(PROMPT_LANG=${FILTER(12,${CUT(EXTEN,*,4)})})',
    ` same => n,GotoIf($[\${DIALPLAN_EXISTS(${recorders},\${CHANNEL(endpoint)},1)} & \${LEN(\${PROMPT})} > 0 & \${LEN(\${PROMPT_LANG})} = 1]?allowed)`,
    ' same => n,Playback(ss-noservice)',
    ' same => n,Hangup()',
    ' same => n(allowed),Answer()',
    ' same => n,SayDigits(${PROMPT})',
    // the tone from indications, not the `beep` file: Record's own beep ends the recording where the sounds are not installed
    ' same => n(record),PlayTones(!1000/400)',
    ' same => n,Wait(0.5)',
    ` same => n,Record(${draft},0,${MAX_SECONDS},q)`,
    // what to press (Asterisk's `vm-review`, where the sounds are installed), then the recording itself: the last of
    // Read's files must exist, else Read ends the call, so the recording is last; a digit cuts either short
    ' same => n(review),Read(KEEP,vm-review&${RECORDED_FILE},1,,3,5)',
    ' same => n,GotoIf($["${KEEP}" = "1"]?keep)',
    ' same => n,GotoIf($["${KEEP}" = "2"]?review)',
    ' same => n,GotoIf($["${KEEP}" = "3"]?record)',
    ' same => n,Hangup()',
    // not `Language`: every event of a channel already carries the channel's own
    ` same => n(keep),UserEvent(${PROMPT_RECORDED_EVENT},Organization: ${org.prefix},Prompt: \${PROMPT},PromptLanguage: \${PROMPT_LANG},File: \${RECORDED_FILE}.wav16,Terminal: \${CHANNEL(endpoint)})`,
    ' same => n,Playback(vm-msgsaved)',
    ' same => n,Hangup()',
    '',
  ]
}

/** the terminals that may record: each its endpoint's name as an extension (none: no context, and the code refuses) */
export function promptRecordersDialplan (org: PromptOrganization): string[] {
  const ids = org.terminals.filter((t) => t.records_prompts).map((t) => t.id).sort()
  if (ids.length === 0) return []
  return [`[${promptRecordersContext(org.prefix)}]`, ...ids.map((id) => `exten => ${id},1,Return()`), '']
}
