BEGIN TRANSACTION;
CREATE TABLE actions (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
);
INSERT INTO "actions" VALUES(1,1,'{"a":"new","advanced":false,"first":1,"first_game":false,"tribes":3}',3073917050);
INSERT INTO "actions" VALUES(1,2,'{"a":"do","args":{},"method":"advance","rolls":[]}',2131988618);
INSERT INTO "actions" VALUES(1,3,'{"a":"brightness","level":5}',979010154);
INSERT INTO "actions" VALUES(1,4,'{"a":"do","args":{},"method":"advance","rolls":[2]}',665531165);
INSERT INTO "actions" VALUES(1,5,'{"a":"do","args":{},"method":"advance","rolls":[]}',2131988618);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
INSERT INTO "games" VALUES(1,'mammut',1.79554704619530034067e+09,NULL,NULL);
COMMIT;
