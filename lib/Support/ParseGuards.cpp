//===- ParseGuards.cpp - input text checks before a recursive parser ------===//
//
// checkIRText is a small lexer over MLIR's token classes (strings, comments,
// numbers, bare and sigil identifiers, `->`, punctuation) with a stack of
// open brackets. It never recurses, and it is linear in the text.
//
//===----------------------------------------------------------------------===//
#include "kiln/Support/ParseGuards.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

#include <string>
#include <vector>

using namespace llvm;

namespace kiln {
namespace {

/// "line:column" (both from 1) of byte `offset` of `text`.
std::string lineColumn(StringRef text, size_t offset) {
  StringRef before = text.take_front(offset);
  size_t line = before.count('\n') + 1;
  size_t lineStart = before.rfind('\n');
  size_t column = lineStart == StringRef::npos ? offset + 1 : offset - lineStart;
  return std::to_string(line) + ":" + std::to_string(column);
}

bool isBareIdStart(char c) { return isAlpha(c) || c == '_'; }
bool isBareIdChar(char c) { return isAlnum(c) || c == '_' || c == '$' || c == '.'; }
/// Sigil identifiers (%x, ^bb, #loc, !t, @f) may also hold '-'.
bool isSuffixIdChar(char c) { return isBareIdChar(c) || c == '-'; }

enum class Tok { Open, Close, Arrow, Keyword, Sigil, Number, String, Punct };

class IRScanner {
public:
  IRScanner(StringRef text, StringRef name, unsigned limit)
      : text(text), name(name), limit(limit) {}
  Error run();

private:
  struct Level {
    char open;           ///< '(', '[', '{' or '<'
    bool affine;         ///< inside affine_map<...> / affine_set<...>
    unsigned operators;  ///< affine operators so far in the current term list
  };
  struct Alias {
    unsigned depth = 0;   ///< the deepest nesting inside its definition
    bool isIndex = false; ///< `!a = index` (or an alias of such an alias)
  };
  /// A use of an alias before its definition: its nesting depth, and where.
  struct Use {
    std::string alias;
    unsigned depth;
    size_t offset;
  };

  Error fail(size_t offset, const Twine &msg) const {
    return createStringError(name + ":" + lineColumn(text, offset) + ": " + msg);
  }
  Error tooDeep(size_t offset, StringRef through = "") const {
    std::string via = through.empty() ? "" : ", counting what alias '" + through.str() + "' holds";
    return fail(offset, "the IR nests deeper than " + Twine(limit) +
                            " levels here" + via +
                            " (kiln's limit: MLIR's parser recurses once per level and would "
                            "overflow its stack)");
  }

  void lex();
  Error token();
  Error raise(unsigned by, size_t offset);
  void endAlias();
  Error checkForwardUses() const;
  bool isIndexAlias(StringRef sigil) const {
    auto it = aliases.find(sigil);
    return it != aliases.end() && it->second.isIndex;
  }

  StringRef text, name;
  unsigned limit;
  size_t pos = 0;

  // The current token.
  Tok kind = Tok::Punct;
  size_t start = 0;
  StringRef spelling;
  // The previous token, for `array <` and `affine_map <`.
  Tok prevKind = Tok::Punct;
  StringRef prevSpelling;
  bool elementOfArray = false;
  size_t arrayOffset = 0;

  SmallVector<Level, 32> stack;
  unsigned depth = 0; ///< brackets open plus affine operators pending

  StringMap<Alias> aliases;
  std::string defining; ///< the alias whose definition is being read, or ""
  unsigned bodyTokens = 0;
  bool bodyIsIndex = false;
  std::vector<Use> forwardUses;
};

/// Reads the token at `pos` into kind/start/spelling; whitespace and
/// comments are skipped by the caller.
void IRScanner::lex() {
  start = pos;
  char c = text[pos];
  auto spanWhile = [&](size_t from, auto pred) {
    size_t i = from;
    while (i < text.size() && pred(text[i]))
      ++i;
    return i;
  };
  auto skipString = [&](size_t quote) {
    size_t i = quote + 1;
    // A string ends at its closing quote; MLIR lets none span lines, so a
    // newline ends an unterminated one and the scan recovers.
    while (i < text.size() && text[i] != '"' && text[i] != '\n')
      i += text[i] == '\\' && i + 1 < text.size() && text[i + 1] != '\n' ? 2 : 1;
    return i < text.size() && text[i] == '"' ? i + 1 : i;
  };
  if (c == '"') {
    kind = Tok::String;
    pos = skipString(pos);
  } else if (isDigit(c)) {
    kind = Tok::Number;
    pos = spanWhile(pos, isDigit);
    if (c == '0' && pos == start + 1 && pos + 1 < text.size() && text[pos] == 'x' &&
        isHexDigit(text[pos + 1])) {
      pos = spanWhile(pos + 1, isHexDigit);
    } else if (pos < text.size() && text[pos] == '.') {
      pos = spanWhile(pos + 1, isDigit);
      // The exponent's sign is no operator.
      if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
        size_t i = pos + 1;
        if (i < text.size() && (text[i] == '+' || text[i] == '-'))
          ++i;
        if (i < text.size() && isDigit(text[i]))
          pos = spanWhile(i, isDigit);
      }
    }
  } else if (isBareIdStart(c)) {
    kind = Tok::Keyword;
    pos = spanWhile(pos, isBareIdChar);
  } else if (StringRef("%^#!@").contains(c)) {
    kind = Tok::Sigil;
    if (pos + 1 < text.size() && text[pos + 1] == '"')
      pos = skipString(pos + 1);
    else
      pos = spanWhile(pos + 1, isSuffixIdChar);
  } else if (c == '-' && pos + 1 < text.size() && text[pos + 1] == '>') {
    kind = Tok::Arrow;
    pos += 2;
  } else {
    kind = StringRef("([{<").contains(c)   ? Tok::Open
           : StringRef(")]}>").contains(c) ? Tok::Close
                                           : Tok::Punct;
    ++pos;
  }
  spelling = text.slice(start, pos);
}

Error IRScanner::raise(unsigned by, size_t offset) {
  depth += by;
  if (depth > limit)
    return tooDeep(offset);
  if (!defining.empty())
    aliases[defining].depth = std::max(aliases[defining].depth, depth);
  return Error::success();
}

void IRScanner::endAlias() {
  aliases[defining].isIndex = bodyTokens == 1 && bodyIsIndex;
  defining.clear();
}

Error IRScanner::token() {
  bool afterArray = elementOfArray;
  elementOfArray = false;
  bool isIndex = (kind == Tok::Keyword && spelling == "index") ||
                 (kind == Tok::Sigil && spelling[0] == '!' && isIndexAlias(spelling));
  if (!defining.empty() && bodyTokens++ == 0)
    bodyIsIndex = isIndex;
  // MLIR 22's parser accepts `index` as the element type of a dense array,
  // then asks it for a float width and crashes (upstream: parseDenseArrayAttr
  // calls getIntOrFloatBitWidth on index). Refuse the form before parsing.
  if (afterArray && isIndex)
    return fail(arrayOffset, "array<index: ...> (a dense array of index elements) crashes "
                             "MLIR 22's parser, an upstream bug; kiln refuses it: use i64 "
                             "elements");

  bool affine = !stack.empty() && stack.back().affine;
  switch (kind) {
  case Tok::Open: {
    bool startsAffine =
        spelling == "<" && prevKind == Tok::Keyword &&
        (prevSpelling == "affine_map" || prevSpelling == "affine_set");
    if (spelling == "<" && prevKind == Tok::Keyword && prevSpelling == "array") {
      elementOfArray = true;
      arrayOffset = prevSpelling.data() - text.data();
    }
    stack.push_back({spelling[0], affine || startsAffine, 0});
    if (Error e = raise(1, start))
      return e;
    break;
  }
  case Tok::Close: {
    char open = spelling[0] == ')' ? '(' : spelling[0] == ']' ? '[' : spelling[0] == '}' ? '{' : '<';
    // A '<' that was no bracket (a comparison) is closed with what holds it;
    // a '>' that closes nothing (`>=` in an affine set) is ignored.
    auto match = llvm::find_if(llvm::reverse(stack), [&](const Level &l) {
      return l.open == open || (open == '<' && l.open != '<');
    });
    if (match == stack.rend() || match->open != open)
      break;
    while (true) {
      Level l = stack.pop_back_val();
      depth -= 1 + l.operators;
      if (l.open == open)
        break;
    }
    break;
  }
  case Tok::Punct:
  case Tok::Keyword:
    // MLIR parses `a + b + c` in an affine expression recursively, one level
    // per operator (and `- - a` one per sign); a comma ends the list.
    if (affine && (spelling == "+" || spelling == "-" || spelling == "*" ||
                   spelling == "floordiv" || spelling == "ceildiv" || spelling == "mod")) {
      ++stack.back().operators;
      if (Error e = raise(1, start))
        return e;
    } else if (affine && spelling == ",") {
      depth -= stack.back().operators;
      stack.back().operators = 0;
    }
    break;
  case Tok::Sigil:
    if (spelling.size() > 1 && (spelling[0] == '#' || spelling[0] == '!') &&
        !spelling.contains('.')) {
      // A use of an alias: what it holds nests below this point. An alias
      // definition may use only aliases defined before it, so its depth is
      // final once it ends; an op's location may name one defined later
      // (Triton's output defines most at the end), checked at the end.
      auto it = aliases.find(spelling);
      if (it != aliases.end()) {
        if (depth + it->second.depth > limit)
          return tooDeep(start, spelling);
        if (!defining.empty())
          aliases[defining].depth = std::max(aliases[defining].depth, depth + it->second.depth);
      } else if (defining.empty()) {
        forwardUses.push_back({spelling.str(), depth, start});
      }
    }
    break;
  default:
    break;
  }
  prevKind = kind;
  prevSpelling = spelling;
  return Error::success();
}

Error IRScanner::checkForwardUses() const {
  for (const Use &use : forwardUses) {
    auto it = aliases.find(use.alias);
    if (it != aliases.end() && use.depth + it->second.depth > limit)
      return tooDeep(use.offset, use.alias);
  }
  return Error::success();
}

Error IRScanner::run() {
  while (pos < text.size()) {
    char c = text[pos];
    if (c == '\n' && !defining.empty() && stack.empty() && bodyTokens > 0)
      endAlias(); // an alias definition ends with its line
    if (isSpace(c)) {
      ++pos;
      continue;
    }
    if (c == '/' && pos + 1 < text.size() && text[pos + 1] == '/') {
      pos = std::min(text.size(), text.find('\n', pos));
      continue;
    }
    lex();
    if (kind == Tok::Sigil && stack.empty() && defining.empty() &&
        (spelling[0] == '#' || spelling[0] == '!')) {
      // `#name = ...` / `!name = ...` at the top level defines an alias.
      size_t i = pos;
      while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
        ++i;
      if (i < text.size() && text[i] == '=' && (i + 1 == text.size() || text[i + 1] != '=')) {
        defining = spelling.str();
        aliases[defining] = Alias();
        bodyTokens = 0;
        bodyIsIndex = false;
        pos = i + 1;
        prevKind = Tok::Punct;
        prevSpelling = "=";
        continue;
      }
    }
    if (Error e = token())
      return e;
  }
  if (!defining.empty())
    endAlias();
  return checkForwardUses();
}

} // namespace

Error checkIRText(StringRef text, StringRef name, unsigned limit) {
  if (text.starts_with("ML\xEFR")) // MLIR bytecode's magic number
    return Error::success();
  return IRScanner(text, name, limit).run();
}

Error checkJSONNesting(StringRef text, unsigned limit) {
  unsigned depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (c == '[' || c == '{') {
      if (++depth > limit)
        return createStringError(lineColumn(text, i) + ": the JSON nests deeper than " +
                                 Twine(limit) + " levels (kiln's limit: its JSON parser "
                                                "recurses once per level)");
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return Error::success();
}

} // namespace kiln
