/*
 * PromQL tokens, as Prometheus' own lexer (promql/parser/lex.go) produces them. Three modes,
 * because PromQL's tokens depend on where they stand: inside braces keywords are plain label
 * names, inside brackets only durations, numbers and the subquery colon occur.
 * Keywords are case-insensitive ("SUM", "By", "Inf"), durations are not ("5m", never "5M").
 */
lexer grammar PromQLLexer;

options { caseInsensitive = true; }

WS            : [ \t\r\n]+ -> skip ;
COMMENT       : '#' ~[\r\n]* -> skip ;

LEFT_PAREN    : '(' ;
RIGHT_PAREN   : ')' ;
LEFT_BRACE    : '{' -> pushMode(BRACES) ;
RIGHT_BRACE   : '}' ;
LEFT_BRACKET  : '[' -> pushMode(BRACKETS) ;
RIGHT_BRACKET : ']' ;
COMMA         : ',' ;
AT            : '@' ;
COLON         : ':' ;

ADD           : '+' ;
SUB           : '-' ;
MUL           : '*' ;
DIV           : '/' ;
MOD           : '%' ;
POW           : '^' ;
EQLC          : '==' ;
NEQ           : '!=' ;
LTE           : '<=' ;
LSS           : '<' ;
GTE           : '>=' ;
GTR           : '>' ;
EQL_REGEX     : '=~' ;
NEQ_REGEX     : '!~' ;
EQL           : '=' ;

AND           : 'and' ;
OR            : 'or' ;
UNLESS        : 'unless' ;
ATAN2         : 'atan2' ;

SUM           : 'sum' ;
AVG           : 'avg' ;
COUNT         : 'count' ;
MIN           : 'min' ;
MAX           : 'max' ;
GROUP         : 'group' ;
STDDEV        : 'stddev' ;
STDVAR        : 'stdvar' ;
TOPK          : 'topk' ;
BOTTOMK       : 'bottomk' ;
COUNT_VALUES  : 'count_values' ;
QUANTILE      : 'quantile' ;
LIMITK        : 'limitk' ;
LIMIT_RATIO   : 'limit_ratio' ;

OFFSET        : 'offset' ;
BY            : 'by' ;
WITHOUT       : 'without' ;
ON            : 'on' ;
IGNORING      : 'ignoring' ;
GROUP_LEFT    : 'group_left' ;
GROUP_RIGHT   : 'group_right' ;
BOOL          : 'bool' ;

// Before IDENTIFIER: "inf" and "nan" are numbers, as in Prometheus ("info" stays a name).
NUMBER        : DECIMAL | HEX | 'inf' | 'nan' ;
DURATION      : DURATION_BODY ;
IDENTIFIER    : [a-z_:] [a-z0-9_:]* ;
STRING        : QUOTED_STRING ;

// Anything else becomes a token of its own, so that the parser reports it with its position.
ERROR_CHAR    : . ;

fragment DIGITS        : [0-9] ('_'? [0-9])* ;
fragment HEX_DIGITS    : [0-9a-f] ('_'? [0-9a-f])* ;
fragment EXPONENT      : 'e' [+-]? DIGITS ;
fragment DECIMAL       : DIGITS ('.' DIGITS?)? EXPONENT? | '.' DIGITS EXPONENT? ;
fragment HEX           : '0x' '_'? HEX_DIGITS ;
fragment DURATION_BODY options { caseInsensitive = false; } : ([0-9]+ ('ms' | 's' | 'm' | 'h' | 'd' | 'w' | 'y'))+ ;
fragment ESCAPE        : '\\' . ;
fragment QUOTED_STRING : '"' (ESCAPE | ~["\\\r\n])* '"'
                       | '\'' (ESCAPE | ~['\\\r\n])* '\''
                       | '`' ~[`]* '`'
                       ;

// Inside a selector's braces: label names (keywords included), match operators, strings.
mode BRACES;

BRACES_WS          : [ \t\r\n]+ -> skip ;
BRACES_COMMA       : ',' -> type(COMMA) ;
BRACES_RIGHT_BRACE : '}' -> type(RIGHT_BRACE), popMode ;
BRACES_EQL_REGEX   : '=~' -> type(EQL_REGEX) ;
BRACES_NEQ_REGEX   : '!~' -> type(NEQ_REGEX) ;
BRACES_NEQ         : '!=' -> type(NEQ) ;
BRACES_EQL         : '=' -> type(EQL) ;
LABEL_NAME         : [a-z_] [a-z0-9_]* ;
BRACES_STRING      : QUOTED_STRING -> type(STRING) ;
BRACES_ERROR       : . -> type(ERROR_CHAR) ;

// Inside a range or subquery's brackets: "5m", "300" (seconds), "1h:30s", "5m:".
mode BRACKETS;

BRACKETS_WS            : [ \t\r\n]+ -> skip ;
BRACKETS_COLON         : ':' -> type(COLON) ;
BRACKETS_RIGHT_BRACKET : ']' -> type(RIGHT_BRACKET), popMode ;
BRACKETS_DURATION      : DURATION_BODY -> type(DURATION) ;
BRACKETS_NUMBER        : DECIMAL -> type(NUMBER) ;
BRACKETS_ERROR         : . -> type(ERROR_CHAR) ;
