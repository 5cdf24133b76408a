/*
 * PromQL expressions, after Prometheus' grammar (promql/parser/generated_parser.y). Precedence
 * from tightest to loosest: range/subquery brackets, offset and @, ^ (right-associative), unary
 * sign (as tight as *), * / % atan2, + -, comparisons, and/unless, or. Type rules (which operand
 * may be what) are checked on the AST, as Prometheus does, so that their messages can be exact.
 */
parser grammar PromQLParser;

options { tokenVocab = PromQLLexer; }

query : expr EOF ;

selectorOnly : vectorSelector EOF ;

expr
  : expr LEFT_BRACKET range=durationValue (COLON step=durationValue?)? RIGHT_BRACKET      # rangeOrSubquery
  | expr OFFSET sign=(ADD | SUB)? durationValue                                        # offset
  | expr AT atTime                                                                     # at
  | <assoc=right> lhs=expr op=POW binModifier rhs=expr                                 # binary
  | sign=(ADD | SUB) expr                                                              # unary
  | lhs=expr op=(MUL | DIV | MOD | ATAN2) binModifier rhs=expr                         # binary
  | lhs=expr op=(ADD | SUB) binModifier rhs=expr                                       # binary
  | lhs=expr op=(EQLC | NEQ | LTE | LSS | GTE | GTR) binModifier rhs=expr              # binary
  | lhs=expr op=(AND | UNLESS) binModifier rhs=expr                                    # binary
  | lhs=expr op=OR binModifier rhs=expr                                                # binary
  | LEFT_PAREN expr RIGHT_PAREN                                                        # paren
  | aggregation                                                                        # aggregate
  | function                                                                           # call
  | vectorSelector                                                                     # selector
  | NUMBER                                                                             # number
  | DURATION                                                                           # durationNumber
  | STRING                                                                             # string
  ;

durationValue : DURATION | NUMBER ;

atTime
  : sign=(ADD | SUB)? NUMBER
  | IDENTIFIER LEFT_PAREN RIGHT_PAREN
  ;

binModifier
  : BOOL? (matching=(ON | IGNORING) labelList (side=(GROUP_LEFT | GROUP_RIGHT) include=labelList?)?)?
  ;

aggregation
  : aggregateOp grouping LEFT_PAREN parameters? RIGHT_PAREN
  | aggregateOp LEFT_PAREN parameters? RIGHT_PAREN grouping?
  ;

aggregateOp
  : SUM | AVG | COUNT | MIN | MAX | GROUP | STDDEV | STDVAR | TOPK | BOTTOMK | COUNT_VALUES
  | QUANTILE | LIMITK | LIMIT_RATIO
  ;

grouping : (BY | WITHOUT) labelList ;

labelList : LEFT_PAREN (labelName (COMMA labelName)* COMMA?)? RIGHT_PAREN ;

labelName : IDENTIFIER | STRING | keyword | aggregateOp ;

keyword
  : AND | OR | UNLESS | ATAN2 | OFFSET | BY | WITHOUT | ON | IGNORING | GROUP_LEFT | GROUP_RIGHT
  | BOOL
  ;

function : IDENTIFIER LEFT_PAREN parameters? RIGHT_PAREN ;

parameters : expr (COMMA expr)* ;

vectorSelector
  : IDENTIFIER labelMatchers?
  | labelMatchers
  ;

labelMatchers : LEFT_BRACE (labelMatcher (COMMA labelMatcher)* COMMA?)? RIGHT_BRACE ;

labelMatcher
  : name=(LABEL_NAME | STRING) op=(EQL | NEQ | EQL_REGEX | NEQ_REGEX) value=STRING
  | metric=STRING
  ;
