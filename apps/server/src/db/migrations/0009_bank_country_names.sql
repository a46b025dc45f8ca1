ALTER TABLE "references" ADD COLUMN "country_code" char(2);--> statement-breakpoint
ALTER TABLE "references" ADD COLUMN "latin_value" text;
-- the banks seeded before: their country, and Cyrillic names (with the Latin one kept) for the Russian ones
--> statement-breakpoint
UPDATE "references" SET "country_code" = 'UZ' WHERE "header_id" = 205 AND "code" IN ('KAPITALBANK', 'NBU', 'SQB', 'HAMKORBANK', 'IPAK_YULI', 'AGROBANK');
--> statement-breakpoint
UPDATE "references" SET "country_code" = 'RU', "value" = 'Сбербанк', "latin_value" = 'Sberbank' WHERE "header_id" = 205 AND "code" = 'SBERBANK';
--> statement-breakpoint
UPDATE "references" SET "country_code" = 'RU', "value" = 'Т-Банк (Тинькофф)', "latin_value" = 'T-Bank (Tinkoff)' WHERE "header_id" = 205 AND "code" = 'TBANK';
--> statement-breakpoint
UPDATE "references" SET "country_code" = 'RU', "value" = 'ВТБ', "latin_value" = 'VTB Bank' WHERE "header_id" = 205 AND "code" = 'VTB';
--> statement-breakpoint
UPDATE "references" SET "country_code" = 'RU', "value" = 'Альфа-Банк', "latin_value" = 'Alfa-Bank' WHERE "header_id" = 205 AND "code" = 'ALFABANK';
--> statement-breakpoint
UPDATE "references" SET "country_code" = 'RU', "value" = 'Газпромбанк', "latin_value" = 'Gazprombank' WHERE "header_id" = 205 AND "code" = 'GAZPROMBANK';
--> statement-breakpoint
UPDATE "references" SET "country_code" = 'RU', "value" = 'Райффайзенбанк', "latin_value" = 'Raiffeisenbank' WHERE "header_id" = 205 AND "code" = 'RAIFFEISEN';
--> statement-breakpoint
UPDATE "references" SET "country_code" = 'RU', "value" = 'Совкомбанк', "latin_value" = 'Sovcombank' WHERE "header_id" = 205 AND "code" = 'SOVCOMBANK';
