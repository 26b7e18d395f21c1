-- One name per meaning: `call_id` is the telephony's id of a call (call events); the call's row is `call_row_id`.
-- A registration's history named the row `call_id`: renamed in the events written before.
UPDATE "appeal_events" SET "payload" = ("payload" - 'call_id') || jsonb_build_object('call_row_id', "payload"->'call_id')
  WHERE "action" = 'register' AND "payload" ? 'call_id';
