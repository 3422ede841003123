-- Full-text search in PostgreSQL's own terms, finding what SQLite's FTS5 index finds (docs/decisions/0041):
-- English stems without stop words (FTS5's porter has none), accents folded (remove_diacritics),
-- and words split at every punctuation mark as unicode61 splits them.
-- The parser and its dictionaries know letters, and fold their case, by the database's LC_CTYPE: under C
-- they would do so for ASCII alone, where FTS5 does for every script. Such a database is refused here.
DO $$
DECLARE
  ctype text;
  encoding text;
BEGIN
  SELECT datctype, pg_encoding_to_char(d.encoding) INTO ctype, encoding FROM pg_database d WHERE datname = current_database();
  IF encoding <> 'UTF8' OR ctype !~* 'utf-?8' THEN
    RAISE EXCEPTION 'store: the database is % with LC_CTYPE %, its text search would miss words SQLite''s finds: create it UTF8 with a UTF-8 LC_CTYPE (CREATE DATABASE ... ENCODING ''UTF8'' LC_CTYPE ''C.UTF-8'' TEMPLATE template0)', encoding, ctype;
  END IF;
END
$$;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE TEXT SEARCH DICTIONARY redline_english_stem (TEMPLATE = snowball, LANGUAGE = english);
--> statement-breakpoint
CREATE TEXT SEARCH CONFIGURATION redline_search (COPY = english);
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION redline_search ALTER MAPPING FOR asciiword, asciihword, hword_asciipart WITH redline_english_stem;
--> statement-breakpoint
ALTER TEXT SEARCH CONFIGURATION redline_search ALTER MAPPING FOR word, hword, hword_part WITH unaccent, redline_english_stem;
--> statement-breakpoint
-- PostgreSQL's parser keeps hosts, URLs, e-mail addresses, paths and versions whole, where FTS5 finds
-- their words: a unit separator (0x1f, a blank to the parser) around every punctuation mark splits them
-- while the text stays as it was once the separators are taken out again (redline_search_headline).
CREATE FUNCTION redline_search_separate(input text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace(input COLLATE "C", '([[:punct:]\u2000-\u206f])', chr(31) || '\1' || chr(31), 'g');
--> statement-breakpoint
-- A tsvector holds at most 1 MB of words: an indexed text is cut at 100,000 characters so no write fails.
CREATE FUNCTION redline_search_vector(input text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN to_tsvector('redline_search', redline_search_separate(left(input, 100000)));
--> statement-breakpoint
-- The words of a search box (each a phrase, all required; a trailing * a prefix), as FTS5 reads the query of db/queries/search.ts.
CREATE FUNCTION redline_search_query(terms text[]) RETURNS tsquery
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
  term text;
  words text;
  part tsquery;
  result tsquery;
BEGIN
  FOREACH term IN ARRAY terms LOOP
    IF term ~ '[^*]\*+$' THEN
      SELECT string_agg(quote_literal(word), ' <-> ') INTO words
        FROM regexp_split_to_table(regexp_replace(term, '\*+$', '') COLLATE "C", '[[:space:][:punct:]\u2000-\u206f]+') AS word
        WHERE word <> '';
      CONTINUE WHEN words IS NULL;
      part := to_tsquery('redline_search', words || ':*');
    ELSE
      part := phraseto_tsquery('redline_search', redline_search_separate(term));
    END IF;
    result := CASE WHEN result IS NULL THEN part ELSE result && part END;
  END LOOP;
  RETURN result;
END
$$;
--> statement-breakpoint
-- The matched words between 0x01 and 0x02, as FTS5's snippet() gives them to db/queries/search.ts.
CREATE FUNCTION redline_search_headline(input text, query tsquery) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN replace(
    ts_headline('redline_search', redline_search_separate(input), query, 'StartSel=' || chr(1) || ', StopSel=' || chr(2) || ', MaxWords=24, MinWords=12'),
    chr(31), '');
--> statement-breakpoint
-- Each incident's current title, update texts and postmortem (written by the recording path, which
-- alone can read the stored versions), weighted as FTS5's bm25(8, 1, 2) weighs them.
CREATE TABLE incident_search (
  incident_id bigint PRIMARY KEY REFERENCES incidents (id) ON DELETE CASCADE,
  title text COLLATE "C" NOT NULL,
  updates text COLLATE "C" NOT NULL,
  postmortem text COLLATE "C" NOT NULL,
  document tsvector GENERATED ALWAYS AS (
    setweight(redline_search_vector(title), 'A') || setweight(redline_search_vector(updates), 'D') || setweight(redline_search_vector(postmortem), 'C')
  ) STORED
);
--> statement-breakpoint
CREATE INDEX incident_search_document ON incident_search USING gin (document);
--> statement-breakpoint
-- The text each version took away from the one before it (decision 0028).
CREATE TABLE version_search (
  version_id bigint PRIMARY KEY REFERENCES incident_versions (id) ON DELETE CASCADE,
  removed text COLLATE "C" NOT NULL,
  document tsvector GENERATED ALWAYS AS (redline_search_vector(removed)) STORED
);
--> statement-breakpoint
CREATE INDEX version_search_document ON version_search USING gin (document);
