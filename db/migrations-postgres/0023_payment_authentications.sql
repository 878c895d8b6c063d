ALTER TABLE "card_setups" ADD COLUMN "amount" integer;--> statement-breakpoint
ALTER TABLE "card_setups" ADD COLUMN "currency" text;--> statement-breakpoint
ALTER TABLE "card_setups" ADD COLUMN "used_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "card_tokens" ADD COLUMN "authentication" text;