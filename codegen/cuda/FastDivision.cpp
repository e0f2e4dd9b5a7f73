//===- FastDivision.cpp - A kernel's flat index split by multiplication ---===//
//
// A thread of a kernel over an N-d loop splits its flat index into the
// loop's indices: a division and a remainder per dim after the first. GPUs
// divide integers in software (tens of instructions for 32 bits, more for
// 64), which made the elementwise kernels of a 4-d tensor ALU-bound. As
// PyTorch's IntDivider does, the host computes for each extent d a magic
// number m and a shift s once per launch, and the kernel divides a 32-bit
// n by d as (umulhi(n, m) + n) >> s, exact for n, d < 2^31 (Granlund and
// Montgomery's method, "Division by invariant integers using
// multiplication", 1994). A launch whose iteration space exceeds 2^31 - 1
// points keeps 64-bit division, chosen by a branch every thread takes the
// same way.
//
//===----------------------------------------------------------------------===//

#include "codegen/cuda/KernelMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

kiln::cuda::Dividers kiln::cuda::makeDividers(OpBuilder &b, Location loc,
                                              ArrayRef<Value> extents,
                                              Value total) {
  Dividers dividers;
  if (extents.size() < 2)
    return dividers; // a 1-d index needs no split
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  auto c64 = [&](int64_t v) {
    return b.create<arith::ConstantIntOp>(loc, v, 64).getResult();
  };
  dividers.fits = b.create<arith::CmpIOp>(
      loc, arith::CmpIPredicate::sle, total,
      b.create<arith::ConstantIndexOp>(loc, INT32_MAX));
  for (Value extent : extents.drop_front()) {
    Value d = b.create<arith::MaxUIOp>(
        loc, b.create<arith::IndexCastUIOp>(loc, i64, extent), c64(1));
    // s = ceil(log2(d)); m = floor(2^32 * (2^s - d) / d) + 1.
    Value s = b.create<arith::SubIOp>(
        loc, c64(64),
        b.create<math::CountLeadingZerosOp>(
            loc, b.create<arith::SubIOp>(loc, d, c64(1))));
    Value p = b.create<arith::SubIOp>(
        loc, b.create<arith::ShLIOp>(loc, c64(1), s), d);
    Value m = b.create<arith::AddIOp>(
        loc,
        b.create<arith::DivUIOp>(
            loc, b.create<arith::ShLIOp>(loc, p, c64(32)), d),
        c64(1));
    dividers.magic.push_back(b.create<arith::TruncIOp>(loc, i32, m));
    dividers.shift.push_back(b.create<arith::TruncIOp>(loc, i32, s));
    dividers.divisor.push_back(b.create<arith::TruncIOp>(loc, i32, d));
  }
  return dividers;
}

SmallVector<Value> kiln::cuda::delinearize(OpBuilder &b, Location loc,
                                           Value point,
                                           ArrayRef<Value> extents,
                                           const Dividers &dividers) {
  size_t rank = extents.size();
  if (rank == 1)
    return {point};
  SmallVector<Type> types(rank, b.getIndexType());
  auto split = b.create<scf::IfOp>(loc, types, dividers.fits,
                                   /*withElseRegion=*/true);
  {
    OpBuilder t = split.getThenBodyBuilder();
    Value n = t.create<arith::IndexCastUIOp>(loc, t.getI32Type(), point);
    SmallVector<Value> indices(rank);
    for (size_t d = rank - 1; d > 0; --d) {
      auto product =
          t.create<arith::MulUIExtendedOp>(loc, n, dividers.magic[d - 1]);
      Value q = t.create<arith::ShRUIOp>(
          loc, t.create<arith::AddIOp>(loc, product.getHigh(), n),
          dividers.shift[d - 1]);
      Value r = t.create<arith::SubIOp>(
          loc, n, t.create<arith::MulIOp>(loc, q, dividers.divisor[d - 1]));
      indices[d] = t.create<arith::IndexCastUIOp>(loc, t.getIndexType(), r);
      n = q;
    }
    indices[0] = t.create<arith::IndexCastUIOp>(loc, t.getIndexType(), n);
    t.create<scf::YieldOp>(loc, indices);
  }
  {
    OpBuilder e = split.getElseBodyBuilder();
    SmallVector<Value> indices(rank);
    Value rest = point;
    for (size_t d = rank - 1; d > 0; --d) {
      indices[d] = e.create<arith::RemUIOp>(loc, rest, extents[d]);
      rest = e.create<arith::DivUIOp>(loc, rest, extents[d]);
    }
    indices[0] = rest;
    e.create<scf::YieldOp>(loc, indices);
  }
  return split.getResults();
}
