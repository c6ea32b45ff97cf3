BEGIN TRANSACTION;
CREATE TABLE actions (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    payload TEXT NOT NULL,
    crc INTEGER NOT NULL,
    PRIMARY KEY (game, seq)
);
INSERT INTO "actions" VALUES(1,1,'{"a":"players","n":2}',2002917443);
INSERT INTO "actions" VALUES(1,2,'{"a":"new","bots":{"1":"yellow"},"dealt":{"0":"black"},"drawn":true,"first":0,"players":2,"setup":{"1":"green","10":"blue","11":"black","12":"green","13":"red","14":"yellow","15":"blue","16":"green","17":"blue","18":"yellow","19":"red","2":"black","20":"black","21":"green","22":"black","23":"blue","24":"yellow","25":"red","26":"yellow","27":"red","28":"blue","29":"green","3":"yellow","30":"black","31":"black","32":"green","33":"red","34":"yellow","35":"blue","36":"green","37":"blue","38":"yellow","39":"red","4":"blue","40":"black","41":"green","42":"black","43":"red","44":"blue","45":"yellow","46":"red","47":"black","48":"yellow","49":"green","5":"red","50":"blue","51":"yellow","52":"green","53":"blue","54":"red","55":"black","56":"green","57":"yellow","58":"black","59":"red","6":"red","60":"blue","7":"yellow","8":"green","9":"black"}}',3183412338);
INSERT INTO "actions" VALUES(1,3,'{"a":"ready"}',2634222732);
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
INSERT INTO "games" VALUES(1,'clans',1.79554704598743104931e+09,NULL,NULL);
COMMIT;
