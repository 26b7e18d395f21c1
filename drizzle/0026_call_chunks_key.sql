-- A chunk is known by its call and its number: the serial id, its sequence and its index cost every chunk and served no one
ALTER TABLE "call_chunks" DROP CONSTRAINT "call_chunks_pkey";--> statement-breakpoint
ALTER TABLE "call_chunks" DROP COLUMN "id";--> statement-breakpoint
-- the unique index becomes the key as it stands: no second index is built over a table of millions of chunks
ALTER TABLE "call_chunks" ADD CONSTRAINT "call_chunks_pkey" PRIMARY KEY USING INDEX "call_chunks_seq_unique";--> statement-breakpoint
-- the fingerprint (SHA-256) as its 32 bytes instead of 64 hex characters: compared byte for byte, not by the
-- database's collation, and half the size in the unique index every chunk is looked up and inserted in
ALTER TABLE "call_chunks" ALTER COLUMN "fingerprint" SET DATA TYPE bytea USING decode("fingerprint", 'hex');
