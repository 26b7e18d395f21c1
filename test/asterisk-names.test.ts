// The dialplan's announcement of a call (src/integrations/asterisk/names.ts): written by the
// generator, read by the line's tracker and the callback placer through one description.
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { announceCall, readCallAnnouncement } from '../src/integrations/asterisk/names.js'

/** the UserEvent as AMI delivers what `announceCall` wrote (Asterisk splits its body at the commas into `Key: value` fields) */
function delivered (application: string, extra: Record<string, string> = {}) {
  const body = /^UserEvent\(([^,]+),(.*)\)$/.exec(application)!
  const fields = Object.fromEntries(body[2]!.split(',').map((pair) => pair.split(': ') as [string, string]))
  return { Event: 'UserEvent', UserEvent: body[1]!, Linkedid: '1733390000.12', ...fields, ...extra }
}

describe('the dialplan\'s announcement of a call', () => {
  it('reads back what was written, as text', () => {
    const written = announceCall({ Menu: 3, Choice: '2', ChosenLanguage: 'kk' })
    assert.equal(written, 'UserEvent(AppealsCall,Menu: 3,Choice: 2,ChosenLanguage: kk)')
    assert.deepEqual(readCallAnnouncement(delivered(written)), { Menu: '3', Choice: '2', ChosenLanguage: 'kk' })
    assert.deepEqual(readCallAnnouncement(delivered(announceCall({ Callback: 7, Queue: 'org201-queue', Joined: '1733390000', Line: '1090' }))),
      { Callback: '7', Queue: 'org201-queue', Joined: '1733390000', Line: '1090' })
  })

  it('another event is none; fields it does not know (the channel\'s own) are left out', () => {
    assert.equal(readCallAnnouncement({ Event: 'UserEvent', UserEvent: 'AppealsPromptRecorded', Line: '1090' }), undefined)
    assert.equal(readCallAnnouncement({ Event: 'Newchannel', Line: '1090' }), undefined)
    assert.deepEqual(readCallAnnouncement(delivered(announceCall({ Rating: '5' }), { CallerIDNum: '+77011234567', Language: 'ru' })), { Rating: '5' })
  })
})
