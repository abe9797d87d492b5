//===- MLIRGen.cpp - Generation of the tile dialect from the AST ----------===//
//
// Walks an analyzed kernel and builds the tile dialect. Semantic analysis has
// resolved every name, typed every expression and folded every constant, so
// generation does not fail: constants are materialized from the annotations,
// compile-time conditions select their branch, and functions are inlined at
// each call (recursion was rejected and the inlined height bounded, so the
// recursion here is bounded too).
//
//===----------------------------------------------------------------------===//

#include "compiler/MLIRGen.h"

#include "compiler/Casting.h"

#include "dialects/Tile/TileOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"

using namespace tilec;
using namespace tilec::ast;

namespace {

/// Builds the module of one kernel.
class Generator {
public:
  Generator(mlir::MLIRContext &Context, const SourceFile &Source)
      : Context(Context), B(&Context),
        FileName(mlir::StringAttr::get(&Context, Source.getName())) {}

  mlir::OwningOpRef<mlir::ModuleOp> run(const KernelInfo &Kernel);

private:
  mlir::Location loc(SourceLoc L) {
    return mlir::FileLineColLoc::get(FileName, L.Line, L.Col);
  }
  /// Returns the location of a block argument bound to `Sym`: its
  /// declaration, named so that the printer can call the value `%name`.
  mlir::Location argLoc(const Symbol &Sym) {
    return mlir::NameLoc::get(mlir::StringAttr::get(&Context, Sym.Name),
                              loc(Sym.Loc));
  }
  mlir::Type scalarType(ScalarKind K);
  mlir::Type bufferType(const BufferInfo &Buffer);
  mlir::Attribute constantAttr(const Constant &C);
  /// Runs `Body` with the insertion point before the terminator of `Block`.
  template <typename Callback> void inside(mlir::Block &Block, Callback Body) {
    mlir::OpBuilder::InsertionGuard Guard(B);
    B.setInsertionPoint(Block.getTerminator());
    Body();
  }

  void genBlock(const Block &Stmts);
  void genStmt(const Stmt &S);
  void genLet(const LetStmt &S);
  void genAssign(const AssignStmt &S);
  void genCallStmt(const CallStmt &S);
  void genCopy(const CallExpr &Call);
  void genFor(const ForStmt &S);
  void genIf(const IfStmt &S);

  mlir::Value genExpr(const Expr &E);
  mlir::Value genConstant(const Constant &C, ScalarKind K, mlir::Location L);
  mlir::Value genCast(mlir::Value V, ScalarKind From, ScalarKind To,
                      mlir::Location L);
  mlir::Value genScalarBuiltin(const CallExpr &E, Builtin Id);
  mlir::Value genSigmoid(mlir::Value X, ScalarKind K, mlir::Location L);
  mlir::Value genFnCall(const CallExpr &E);
  mlir::Value genUnary(const UnaryExpr &E);
  mlir::Value genBinary(const BinaryExpr &E);
  mlir::Value buffer(const Expr &E) {
    const Symbol *S =
        isa<NameExpr>(&E) ? cast<NameExpr>(E).Sym : cast<IndexExpr>(E).Sym;
    return Values.lookup(S);
  }

  mlir::MLIRContext &Context;
  mlir::OpBuilder B;
  mlir::StringAttr FileName;
  /// The value of each symbol in scope.
  llvm::DenseMap<const Symbol *, mlir::Value> Values;
};

/// Returns the kind of `E`'s (concrete) type.
ScalarKind kindOf(const Expr &E) { return E.Ty.getScalar(); }

mlir::Type Generator::scalarType(ScalarKind K) {
  switch (K) {
  case ScalarKind::Bool:
    return B.getI1Type();
  case ScalarKind::I8:
  case ScalarKind::U8:
    return B.getI8Type();
  case ScalarKind::I16:
    return B.getI16Type();
  case ScalarKind::I32:
  case ScalarKind::U32:
    return B.getI32Type();
  case ScalarKind::I64:
    return B.getI64Type();
  case ScalarKind::F16:
    return B.getF16Type();
  case ScalarKind::BF16:
    return B.getBF16Type();
  case ScalarKind::F32:
    return B.getF32Type();
  case ScalarKind::F64:
    return B.getF64Type();
  case ScalarKind::Index:
    return B.getIndexType();
  }
  return B.getIndexType();
}

mlir::Type Generator::bufferType(const BufferInfo &Buffer) {
  llvm::SmallVector<int64_t> Shape;
  for (std::int64_t Extent : Buffer.Shape)
    Shape.push_back(Extent == BufferInfo::Dynamic ? mlir::ShapedType::kDynamic
                                                  : Extent);
  mlir::tile::MemoryScope Scope = mlir::tile::MemoryScope::Local;
  if (Buffer.Scope == MemScope::Global)
    Scope = mlir::tile::MemoryScope::Global;
  else if (Buffer.Scope == MemScope::Shared)
    Scope = mlir::tile::MemoryScope::Shared;
  else if (Buffer.Scope == MemScope::Fragment)
    Scope = mlir::tile::MemoryScope::Fragment;
  return mlir::tile::BufferType::get(Shape, scalarType(Buffer.Elem), Scope);
}

mlir::Attribute Generator::constantAttr(const Constant &C) {
  switch (C.K) {
  case Constant::Kind::Int:
    return B.getI64IntegerAttr(C.Int);
  case Constant::Kind::Bool:
    return B.getBoolAttr(C.Bool);
  case Constant::Kind::Float:
    return B.getF64FloatAttr(C.Float);
  case Constant::Kind::Type:
    // Unsigned element types keep their signedness here; everywhere else
    // they are signless integers, as arith requires.
    if (isUnsigned(C.Type))
      return mlir::TypeAttr::get(mlir::IntegerType::get(
          &Context, getBitWidth(C.Type), mlir::IntegerType::Unsigned));
    return mlir::TypeAttr::get(scalarType(C.Type));
  }
  return {};
}

mlir::OwningOpRef<mlir::ModuleOp> Generator::run(const KernelInfo &Kernel) {
  const KernelDecl &Decl = *Kernel.Decl;
  mlir::Location KernelLoc = loc(Decl.Name.Loc);
  mlir::OwningOpRef<mlir::ModuleOp> Module = mlir::ModuleOp::create(KernelLoc);

  // Arguments in ABI order: tensors, symbolic dims, scalars.
  llvm::SmallVector<const Symbol *> Args(Kernel.Tensors.begin(),
                                         Kernel.Tensors.end());
  Args.append(Kernel.Dims.begin(), Kernel.Dims.end());
  Args.append(Kernel.Scalars.begin(), Kernel.Scalars.end());
  llvm::SmallVector<mlir::Type> ArgTypes;
  for (const Symbol *Arg : Args)
    ArgTypes.push_back(Arg->K == Symbol::Kind::Tensor
                           ? bufferType(Arg->Buffer)
                           : scalarType(Arg->Ty.getScalar()));

  B.setInsertionPointToEnd(Module->getBody());
  auto KernelOp = mlir::tile::KernelOp::create(B, KernelLoc, Decl.Name.Name,
                                               B.getFunctionType(ArgTypes, {}));
  mlir::Block &Body = KernelOp.getBody().front();
  for (auto [Index, Arg] : llvm::enumerate(Args)) {
    unsigned I = static_cast<unsigned>(Index);
    Body.getArgument(I).setLoc(loc(Arg->Loc));
    Values[Arg] = Body.getArgument(I);
    KernelOp.setArgAttr(I, mlir::tile::KernelOp::getArgNameAttrName(),
                        B.getStringAttr(Arg->Name));
    if (Arg->K == Symbol::Kind::Dim)
      continue;
    ScalarKind Elem =
        Arg->K == Symbol::Kind::Tensor ? Arg->Buffer.Elem : Arg->Ty.getScalar();
    KernelOp.setArgAttr(I,
                        mlir::tile::TileDialect::DtypeAttrHelper::getNameStr(),
                        B.getStringAttr(getSpelling(Elem)));
    if (Arg->K != Symbol::Kind::Tensor)
      continue;
    llvm::SmallVector<mlir::Attribute> Shape;
    for (auto [Extent, Name] :
         llvm::zip_equal(Arg->Buffer.Shape, Arg->Buffer.DimNames))
      Shape.push_back(Name.empty()
                          ? mlir::Attribute(B.getI64IntegerAttr(Extent))
                          : mlir::Attribute(B.getStringAttr(Name)));
    KernelOp.setArgAttr(I, mlir::tile::KernelOp::getArgShapeAttrName(),
                        B.getArrayAttr(Shape));
  }
  llvm::SmallVector<mlir::NamedAttribute> Constants;
  for (const Symbol *Param : Kernel.ConstParams)
    Constants.push_back(
        B.getNamedAttr(Param->Name, constantAttr(*Param->Const)));
  KernelOp->setAttr(mlir::tile::KernelOp::getConstantsAttrName(),
                    B.getDictionaryAttr(Constants));

  inside(Body, [&] {
    for (const StmtPtr &S : Decl.Body.Stmts) {
      if (const auto *Let = dyn_cast<LetStmt>(S.get())) {
        genLet(*Let);
        continue;
      }
      const auto &Launch = cast<LaunchStmt>(*S);
      llvm::SmallVector<mlir::Value> Grid;
      for (const ExprPtr &Extent : Launch.Config->Args)
        Grid.push_back(genExpr(*Extent));
      auto LaunchOp = mlir::tile::LaunchOp::create(B, loc(Launch.getLoc()),
                                                   Grid, Launch.Threads);
      mlir::Block &LaunchBody = LaunchOp.getBody().front();
      for (auto [I, Sym] : llvm::enumerate(Launch.BlockSyms)) {
        LaunchBody.getArgument(I).setLoc(Sym ? argLoc(*Sym)
                                             : loc(Launch.getLoc()));
        if (Sym)
          Values[Sym] = LaunchBody.getArgument(I);
      }
      inside(LaunchBody, [&] { genBlock(Launch.Body); });
    }
  });
  return Module;
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

void Generator::genBlock(const Block &Stmts) {
  for (const StmtPtr &S : Stmts.Stmts)
    genStmt(*S);
}

void Generator::genStmt(const Stmt &S) {
  switch (S.getKind()) {
  case Stmt::Kind::Let:
    return genLet(cast<LetStmt>(S));
  case Stmt::Kind::Assign:
    return genAssign(cast<AssignStmt>(S));
  case Stmt::Kind::Call:
    return genCallStmt(cast<CallStmt>(S));
  case Stmt::Kind::For:
    return genFor(cast<ForStmt>(S));
  case Stmt::Kind::If:
    return genIf(cast<IfStmt>(S));
  case Stmt::Kind::Launch:
  case Stmt::Kind::Return:
    // Only at kernel level and at the end of functions, which their callers
    // handle.
    return;
  }
}

void Generator::genLet(const LetStmt &S) {
  const auto *Call = dyn_cast<CallExpr>(S.Init.get());
  if (Call && Call->BuiltinId &&
      getBuiltinInfo(*Call->BuiltinId).Category ==
          BuiltinCategory::Allocation) {
    mlir::Location L = loc(S.Name.Loc);
    mlir::Type Type = bufferType(S.Sym->Buffer);
    mlir::Value Buffer;
    switch (*Call->BuiltinId) {
    case Builtin::AllocShared:
      Buffer = mlir::tile::AllocSharedOp::create(B, L, Type,
                                                 /*offset=*/nullptr);
      break;
    case Builtin::AllocFragment:
      Buffer = mlir::tile::AllocFragmentOp::create(B, L, Type);
      break;
    case Builtin::AllocLocal:
      Buffer = mlir::tile::AllocLocalOp::create(B, L, Type);
      break;
    default:
      Buffer = mlir::tile::AllocVarOp::create(B, L, Type);
      break;
    }
    Values[S.Sym] = Buffer;
    return;
  }
  // Constants are materialized where they are used.
  if (!S.Sym->Const)
    Values[S.Sym] = genExpr(*S.Init);
}

void Generator::genAssign(const AssignStmt &S) {
  mlir::Value Value = genExpr(*S.Value);
  llvm::SmallVector<mlir::Value> Indices;
  if (const auto *Index = dyn_cast<IndexExpr>(S.Target.get()))
    for (const ExprPtr &I : Index->Indices)
      Indices.push_back(genExpr(*I));
  mlir::tile::StoreOp::create(B, loc(S.getLoc()), Value, buffer(*S.Target),
                              Indices);
}

void Generator::genCallStmt(const CallStmt &S) {
  const CallExpr &Call = *S.Call;
  const TileStmtOptions &O = S.Options;
  mlir::Location L = loc(Call.getLoc());
  Builtin Id = *Call.BuiltinId;
  switch (Id) {
  case Builtin::Copy:
    return genCopy(Call);
  case Builtin::Gemm:
    mlir::tile::GemmOp::create(
        B, L, buffer(*Call.Args[0]), buffer(*Call.Args[1]),
        buffer(*Call.Args[2]), O.TransposeA, O.TransposeB,
        *mlir::tile::symbolizeGemmPolicy(O.Policy), O.Clear);
    return;
  case Builtin::Clear:
    mlir::tile::ClearOp::create(B, L, buffer(*Call.Args[0]));
    return;
  case Builtin::Fill:
    mlir::tile::FillOp::create(B, L, buffer(*Call.Args[0]),
                               genExpr(*Call.Args[1]));
    return;
  case Builtin::UseSwizzle:
    mlir::tile::UseSwizzleOp::create(B, L, O.Panel);
    return;
  case Builtin::AnnotateLayout:
    mlir::tile::AnnotateLayoutOp::create(
        B, L, buffer(*Call.Args[0]),
        mlir::tile::LayoutAttr::get(
            &Context, *mlir::tile::symbolizeLayoutKind(O.Layout)));
    return;
  case Builtin::Print: {
    const Expr *Value = Call.Args.back().get();
    mlir::tile::PrintOp::create(
        B, L, O.Message,
        isa<StringLiteralExpr>(Value) ? mlir::Value() : genExpr(*Value));
    return;
  }
  default: {
    mlir::tile::ReduceKind Kind =
        Id == Builtin::ReduceSum      ? mlir::tile::ReduceKind::Sum
        : Id == Builtin::ReduceMax    ? mlir::tile::ReduceKind::Max
        : Id == Builtin::ReduceMin    ? mlir::tile::ReduceKind::Min
        : Id == Builtin::ReduceAbsSum ? mlir::tile::ReduceKind::AbsSum
                                      : mlir::tile::ReduceKind::AbsMax;
    mlir::tile::ReduceOp::create(B, L, buffer(*Call.Args[0]),
                                 buffer(*Call.Args[1]), /*scratch=*/nullptr,
                                 Kind, static_cast<uint64_t>(O.Dim), O.Clear);
    return;
  }
  }
}

void Generator::genCopy(const CallExpr &Call) {
  const Expr &Src = *Call.Args[0];
  const Expr &Dst = *Call.Args[1];
  auto Origin = [&](const Expr &E) {
    llvm::SmallVector<mlir::Value> Indices;
    if (const auto *Index = dyn_cast<IndexExpr>(&E))
      for (const ExprPtr &I : Index->Indices)
        Indices.push_back(genExpr(*I));
    return Indices;
  };
  llvm::SmallVector<mlir::Value> SrcOrigin = Origin(Src);
  llvm::SmallVector<mlir::Value> DstOrigin = Origin(Dst);
  // A global tensor given without an origin is copied at origin 0.
  auto ZeroOrigin = [&](const Expr &E, llvm::SmallVector<mlir::Value> &Out) {
    const BufferInfo &Info = cast<NameExpr>(E).Sym->Buffer;
    mlir::Value Zero =
        genConstant(Constant::getInt(0), ScalarKind::Index, loc(E.getLoc()));
    Out.assign(Info.getRank(), Zero);
  };
  if (SrcOrigin.empty() && DstOrigin.empty()) {
    if (isa<NameExpr>(&Src) &&
        cast<NameExpr>(Src).Sym->Buffer.Scope == MemScope::Global)
      ZeroOrigin(Src, SrcOrigin);
    else if (isa<NameExpr>(&Dst) &&
             cast<NameExpr>(Dst).Sym->Buffer.Scope == MemScope::Global)
      ZeroOrigin(Dst, DstOrigin);
  }
  mlir::tile::CopyOp::create(B, loc(Call.getLoc()), buffer(Src), SrcOrigin,
                             buffer(Dst), DstOrigin, /*barrier=*/nullptr,
                             /*barrierIndex=*/nullptr, /*staging=*/nullptr);
}

void Generator::genFor(const ForStmt &S) {
  mlir::Location L = loc(S.getLoc());
  const CallExpr &Range = *S.Range;
  mlir::Block *Body;
  switch (*Range.BuiltinId) {
  case Builtin::Parallel:
    Body = &mlir::tile::ParallelOp::create(B, L, S.Extents).getBody().front();
    break;
  case Builtin::Pipelined:
    Body = &mlir::tile::PipelinedOp::create(B, L, genExpr(*Range.Args[0]),
                                            S.Stages)
                .getBody()
                .front();
    break;
  case Builtin::Serial:
    Body = &mlir::tile::SerialOp::create(B, L, genExpr(*Range.Args[0]))
                .getBody()
                .front();
    break;
  default:
    Body = &mlir::tile::UnrollOp::create(B, L, genExpr(*Range.Args[0]))
                .getBody()
                .front();
    break;
  }
  for (auto [I, Sym] : llvm::enumerate(S.VarSyms)) {
    Body->getArgument(I).setLoc(argLoc(*Sym));
    Values[Sym] = Body->getArgument(I);
  }
  inside(*Body, [&] { genBlock(S.Body); });
}

void Generator::genIf(const IfStmt &S) {
  // A compile-time condition keeps only the branch it selects.
  if (S.Cond->Const) {
    if (S.Cond->Const->Bool)
      genBlock(S.Then);
    else if (S.Else)
      genBlock(*S.Else);
    return;
  }
  auto If = mlir::tile::IfOp::create(B, loc(S.getLoc()), genExpr(*S.Cond),
                                     S.Else.has_value());
  inside(If.getThenRegion().front(), [&] { genBlock(S.Then); });
  if (S.Else)
    inside(If.getElseRegion().front(), [&] { genBlock(*S.Else); });
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

mlir::Value Generator::genConstant(const Constant &C, ScalarKind K,
                                   mlir::Location L) {
  mlir::Type Type = scalarType(K);
  mlir::TypedAttr Value;
  if (isFloat(K)) {
    double V = C.K == Constant::Kind::Float  ? C.Float
               : C.K == Constant::Kind::Bool ? double(C.Bool)
                                             : double(C.Int);
    Value = B.getFloatAttr(Type, V);
  } else if (K == ScalarKind::Index) {
    Value = B.getIndexAttr(C.Int);
  } else {
    std::int64_t V = C.K == Constant::Kind::Bool ? C.Bool : C.Int;
    Value = mlir::IntegerAttr::get(
        Type, llvm::APInt(getBitWidth(K), static_cast<uint64_t>(V),
                          /*isSigned=*/false, /*implicitTrunc=*/true));
  }
  return mlir::arith::ConstantOp::create(B, L, Value);
}

mlir::Value Generator::genExpr(const Expr &E) {
  mlir::Location L = loc(E.getLoc());
  if (E.Const)
    return genConstant(*E.Const, kindOf(E), L);
  switch (E.getKind()) {
  case Expr::Kind::Name: {
    const Symbol *Sym = cast<NameExpr>(E).Sym;
    mlir::Value V = Values.lookup(Sym);
    if (Sym->K == Symbol::Kind::Buffer)
      return mlir::tile::LoadOp::create(B, L, scalarType(Sym->Buffer.Elem), V,
                                        mlir::ValueRange());
    return V;
  }
  case Expr::Kind::Index: {
    const auto &Index = cast<IndexExpr>(E);
    llvm::SmallVector<mlir::Value> Indices;
    for (const ExprPtr &I : Index.Indices)
      Indices.push_back(genExpr(*I));
    return mlir::tile::LoadOp::create(B, L, scalarType(kindOf(E)),
                                      Values.lookup(Index.Sym), Indices);
  }
  case Expr::Kind::Call: {
    const auto &Call = cast<CallExpr>(E);
    if (Call.Fn)
      return genFnCall(Call);
    return genScalarBuiltin(Call, *Call.BuiltinId);
  }
  case Expr::Kind::Cast: {
    const auto &Cast = cast<CastExpr>(E);
    return genCast(genExpr(*Cast.Operand), kindOf(*Cast.Operand), kindOf(E), L);
  }
  case Expr::Kind::Unary:
    return genUnary(cast<UnaryExpr>(E));
  case Expr::Kind::Binary:
    return genBinary(cast<BinaryExpr>(E));
  case Expr::Kind::Ternary: {
    const auto &Ternary = cast<TernaryExpr>(E);
    if (Ternary.Cond->Const)
      return genExpr(Ternary.Cond->Const->Bool ? *Ternary.Then : *Ternary.Else);
    mlir::Value Cond = genExpr(*Ternary.Cond);
    mlir::Value Then = genExpr(*Ternary.Then);
    mlir::Value Else = genExpr(*Ternary.Else);
    return mlir::arith::SelectOp::create(B, L, Cond, Then, Else);
  }
  default:
    // Literals are constants; strings, lists and errors never reach here.
    return {};
  }
}

mlir::Value Generator::genCast(mlir::Value V, ScalarKind From, ScalarKind To,
                               mlir::Location L) {
  if (From == To)
    return V;
  mlir::Type Target = scalarType(To);
  bool FromUnsigned = isUnsigned(From) || From == ScalarKind::Bool;
  if (isFloat(From) && isFloat(To)) {
    unsigned FromBits = getBitWidth(From), ToBits = getBitWidth(To);
    if (FromBits < ToBits)
      return mlir::arith::ExtFOp::create(B, L, Target, V);
    if (FromBits > ToBits)
      return mlir::arith::TruncFOp::create(B, L, Target, V);
    // f16 <-> bf16: through f32.
    mlir::Value Wide = mlir::arith::ExtFOp::create(B, L, B.getF32Type(), V);
    return mlir::arith::TruncFOp::create(B, L, Target, Wide);
  }
  if (isFloat(From)) {
    if (To == ScalarKind::Index) {
      mlir::Value Int = mlir::arith::FPToSIOp::create(B, L, B.getI64Type(), V);
      return mlir::arith::IndexCastOp::create(B, L, Target, Int);
    }
    if (isUnsigned(To))
      return mlir::arith::FPToUIOp::create(B, L, Target, V);
    return mlir::arith::FPToSIOp::create(B, L, Target, V);
  }
  if (isFloat(To)) {
    if (From == ScalarKind::Index)
      V = mlir::arith::IndexCastOp::create(B, L, B.getI64Type(), V);
    if (FromUnsigned)
      return mlir::arith::UIToFPOp::create(B, L, Target, V);
    return mlir::arith::SIToFPOp::create(B, L, Target, V);
  }
  if (To == ScalarKind::Index) {
    if (FromUnsigned)
      return mlir::arith::IndexCastUIOp::create(B, L, Target, V);
    return mlir::arith::IndexCastOp::create(B, L, Target, V);
  }
  if (From == ScalarKind::Index) {
    // Through i64 and a truncation: the canonicalizer folds
    // index_cast(index_cast(x)) to x, which would drop the truncation of
    // `cast<index>(cast<i32>(n))`.
    V = mlir::arith::IndexCastOp::create(B, L, B.getI64Type(), V);
    return genCast(V, ScalarKind::I64, To, L);
  }
  unsigned FromBits = getBitWidth(From), ToBits = getBitWidth(To);
  if (FromBits == ToBits)
    return V; // i32 <-> u32, i8 <-> u8: the same signless integer.
  if (FromBits > ToBits)
    return mlir::arith::TruncIOp::create(B, L, Target, V);
  if (FromUnsigned)
    return mlir::arith::ExtUIOp::create(B, L, Target, V);
  return mlir::arith::ExtSIOp::create(B, L, Target, V);
}

mlir::Value Generator::genSigmoid(mlir::Value X, ScalarKind K,
                                  mlir::Location L) {
  // 1 / (1 + exp(-x)), in f32 for the 16-bit types like the other math.
  bool Narrow = K == ScalarKind::F16 || K == ScalarKind::BF16;
  ScalarKind Compute = Narrow ? ScalarKind::F32 : K;
  if (Narrow)
    X = mlir::arith::ExtFOp::create(B, L, scalarType(Compute), X);
  mlir::Value One = genConstant(Constant::getFloat(1.0), Compute, L);
  mlir::Value Exp =
      mlir::math::ExpOp::create(B, L, mlir::arith::NegFOp::create(B, L, X));
  mlir::Value Result = mlir::arith::DivFOp::create(
      B, L, One, mlir::arith::AddFOp::create(B, L, One, Exp));
  if (Narrow)
    Result = mlir::arith::TruncFOp::create(B, L, scalarType(K), Result);
  return Result;
}

mlir::Value Generator::genScalarBuiltin(const CallExpr &E, Builtin Id) {
  mlir::Location L = loc(E.getLoc());
  ScalarKind K = kindOf(E);
  mlir::Value A = genExpr(*E.Args[0]);
  switch (Id) {
  case Builtin::Exp:
    return mlir::math::ExpOp::create(B, L, A);
  case Builtin::Exp2:
    return mlir::math::Exp2Op::create(B, L, A);
  case Builtin::Log:
    return mlir::math::LogOp::create(B, L, A);
  case Builtin::Log2:
    return mlir::math::Log2Op::create(B, L, A);
  case Builtin::Sqrt:
    return mlir::math::SqrtOp::create(B, L, A);
  case Builtin::Rsqrt:
    return mlir::math::RsqrtOp::create(B, L, A);
  case Builtin::Tanh:
    return mlir::math::TanhOp::create(B, L, A);
  case Builtin::Erf:
    return mlir::math::ErfOp::create(B, L, A);
  case Builtin::Floor:
    return mlir::math::FloorOp::create(B, L, A);
  case Builtin::Ceil:
    return mlir::math::CeilOp::create(B, L, A);
  case Builtin::Sin:
    return mlir::math::SinOp::create(B, L, A);
  case Builtin::Cos:
    return mlir::math::CosOp::create(B, L, A);
  case Builtin::Sigmoid:
    return genSigmoid(A, K, L);
  case Builtin::Abs: {
    if (isFloat(K))
      return mlir::math::AbsFOp::create(B, L, A);
    if (isUnsigned(K))
      return A;
    if (K != ScalarKind::Index)
      return mlir::math::AbsIOp::create(B, L, A);
    mlir::Value Zero = genConstant(Constant::getInt(0), K, L);
    mlir::Value Negated = mlir::arith::SubIOp::create(B, L, Zero, A);
    return mlir::arith::MaxSIOp::create(B, L, A, Negated);
  }
  default:
    break;
  }
  mlir::Value C = genExpr(*E.Args[1]);
  bool Unsigned = isUnsigned(K);
  switch (Id) {
  case Builtin::Pow:
    return mlir::math::PowFOp::create(B, L, A, C);
  case Builtin::Fma:
    return mlir::math::FmaOp::create(B, L, A, C, genExpr(*E.Args[2]));
  case Builtin::Max:
    if (isFloat(K))
      return mlir::arith::MaximumFOp::create(B, L, A, C);
    if (Unsigned)
      return mlir::arith::MaxUIOp::create(B, L, A, C);
    return mlir::arith::MaxSIOp::create(B, L, A, C);
  case Builtin::Min:
    if (isFloat(K))
      return mlir::arith::MinimumFOp::create(B, L, A, C);
    if (Unsigned)
      return mlir::arith::MinUIOp::create(B, L, A, C);
    return mlir::arith::MinSIOp::create(B, L, A, C);
  default:
    if (Unsigned)
      return mlir::arith::CeilDivUIOp::create(B, L, A, C);
    return mlir::arith::CeilDivSIOp::create(B, L, A, C);
  }
}

mlir::Value Generator::genFnCall(const CallExpr &E) {
  const FnDecl &Fn = *E.Fn;
  llvm::SmallVector<mlir::Value> Args;
  for (const ExprPtr &Arg : E.Args)
    Args.push_back(genExpr(*Arg));
  // Functions do not recurse, so one binding of their symbols at a time.
  for (auto [Sym, Arg] : llvm::zip_equal(Fn.ParamSyms, Args))
    Values[Sym] = Arg;
  for (const StmtPtr &S : Fn.Body.Stmts) {
    if (const auto *Let = dyn_cast<LetStmt>(S.get()))
      genLet(*Let);
    else
      return genExpr(*cast<ReturnStmt>(*S).Value);
  }
  return {};
}

mlir::Value Generator::genUnary(const UnaryExpr &E) {
  mlir::Location L = loc(E.getLoc());
  mlir::Value V = genExpr(*E.Operand);
  ScalarKind K = kindOf(E);
  if (E.Op == UnaryOp::Not) {
    mlir::Value True = genConstant(Constant::getBool(true), K, L);
    return mlir::arith::XOrIOp::create(B, L, V, True);
  }
  if (isFloat(K))
    return mlir::arith::NegFOp::create(B, L, V);
  mlir::Value Zero = genConstant(Constant::getInt(0), K, L);
  return mlir::arith::SubIOp::create(B, L, Zero, V);
}

mlir::Value Generator::genBinary(const BinaryExpr &E) {
  mlir::Location L = loc(E.getLoc());
  // `true && x` and `false || x` are x (decisive constants were folded).
  if (E.Op == BinaryOp::And || E.Op == BinaryOp::Or) {
    if (E.LHS->Const)
      return genExpr(*E.RHS);
    if (E.RHS->Const)
      return genExpr(*E.LHS);
  }
  mlir::Value A = genExpr(*E.LHS);
  mlir::Value C = genExpr(*E.RHS);
  ScalarKind K = kindOf(*E.LHS);
  bool Float = isFloat(K);
  bool Unsigned = isUnsigned(K) || K == ScalarKind::Bool;
  using mlir::arith::CmpFPredicate;
  using mlir::arith::CmpIPredicate;
  switch (E.Op) {
  case BinaryOp::And:
    return mlir::arith::AndIOp::create(B, L, A, C);
  case BinaryOp::Or:
    return mlir::arith::OrIOp::create(B, L, A, C);
  case BinaryOp::Add:
    if (Float)
      return mlir::arith::AddFOp::create(B, L, A, C);
    return mlir::arith::AddIOp::create(B, L, A, C);
  case BinaryOp::Sub:
    if (Float)
      return mlir::arith::SubFOp::create(B, L, A, C);
    return mlir::arith::SubIOp::create(B, L, A, C);
  case BinaryOp::Mul:
    if (Float)
      return mlir::arith::MulFOp::create(B, L, A, C);
    return mlir::arith::MulIOp::create(B, L, A, C);
  case BinaryOp::Div:
    if (Float)
      return mlir::arith::DivFOp::create(B, L, A, C);
    if (Unsigned)
      return mlir::arith::DivUIOp::create(B, L, A, C);
    return mlir::arith::DivSIOp::create(B, L, A, C);
  case BinaryOp::Rem:
    if (Float)
      return mlir::arith::RemFOp::create(B, L, A, C);
    if (Unsigned)
      return mlir::arith::RemUIOp::create(B, L, A, C);
    return mlir::arith::RemSIOp::create(B, L, A, C);
  case BinaryOp::Shl:
    return mlir::arith::ShLIOp::create(B, L, A, C);
  case BinaryOp::Shr:
    if (Unsigned)
      return mlir::arith::ShRUIOp::create(B, L, A, C);
    return mlir::arith::ShRSIOp::create(B, L, A, C);
  default:
    break;
  }
  if (Float) {
    CmpFPredicate Predicate;
    switch (E.Op) {
    case BinaryOp::Eq:
      Predicate = CmpFPredicate::OEQ;
      break;
    case BinaryOp::Ne:
      Predicate = CmpFPredicate::UNE;
      break;
    case BinaryOp::Lt:
      Predicate = CmpFPredicate::OLT;
      break;
    case BinaryOp::Le:
      Predicate = CmpFPredicate::OLE;
      break;
    case BinaryOp::Gt:
      Predicate = CmpFPredicate::OGT;
      break;
    default:
      Predicate = CmpFPredicate::OGE;
      break;
    }
    return mlir::arith::CmpFOp::create(B, L, Predicate, A, C);
  }
  CmpIPredicate Predicate;
  switch (E.Op) {
  case BinaryOp::Eq:
    Predicate = CmpIPredicate::eq;
    break;
  case BinaryOp::Ne:
    Predicate = CmpIPredicate::ne;
    break;
  case BinaryOp::Lt:
    Predicate = Unsigned ? CmpIPredicate::ult : CmpIPredicate::slt;
    break;
  case BinaryOp::Le:
    Predicate = Unsigned ? CmpIPredicate::ule : CmpIPredicate::sle;
    break;
  case BinaryOp::Gt:
    Predicate = Unsigned ? CmpIPredicate::ugt : CmpIPredicate::sgt;
    break;
  default:
    Predicate = Unsigned ? CmpIPredicate::uge : CmpIPredicate::sge;
    break;
  }
  return mlir::arith::CmpIOp::create(B, L, Predicate, A, C);
}

} // namespace

void tilec::loadFrontEndDialects(mlir::MLIRContext &Context) {
  Context.loadDialect<mlir::tile::TileDialect, mlir::arith::ArithDialect,
                      mlir::math::MathDialect>();
}

mlir::OwningOpRef<mlir::ModuleOp>
tilec::generateKernel(mlir::MLIRContext &Context, const SourceFile &Source,
                      const KernelInfo &Kernel) {
  return Generator(Context, Source).run(Kernel);
}
